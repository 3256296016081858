import { idsInOrder } from './ids-in-order';
import { ModelScope } from './model-scope';

/** One object of a sharded model: its id and the scope of the shard holding it. */
export interface ShardedId {
  readonly id: string;
  readonly shard: ModelScope;
}

/**
 * The ids of every shard of a model, at most `batchSize` at a time, in id order across the shards: each shard's
 * ids in `all`'s order (ids-in-order.ts), merged. Sequence ids in numeric order (shards draw interleaved ids),
 * uuids by their bytes (the order of an unsharded model's `all`, whose uuids all score 0). Memory holds one
 * window of each shard.
 */
export async function* idsAcrossShards(shards: readonly ModelScope[], sequence: boolean, batchSize: number): AsyncGenerator<ShardedId[]> {
  const before = sequence
    ? (a: string, b: string) => Number(a) < Number(b)
    : (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b)) < 0;
  const streams = shards.map((shard) => ({ shard, ids: idsInOrder(shard, batchSize), window: [] as string[], at: 0, done: false }));
  const refill = async (stream: (typeof streams)[number]): Promise<void> => {
    while (!stream.done && stream.at >= stream.window.length) {
      const next = await stream.ids.next();
      if (next.done) stream.done = true;
      else [stream.window, stream.at] = [next.value, 0];
    }
  };
  await Promise.all(streams.map(refill));
  let batch: ShardedId[] = [];
  for (;;) {
    let first: (typeof streams)[number] | undefined;
    for (const stream of streams) {
      if (stream.done) continue;
      if (!first || before(stream.window[stream.at], first.window[first.at])) first = stream;
    }
    if (!first) break;
    batch.push({ id: first.window[first.at++], shard: first.shard });
    if (batch.length === batchSize) {
      yield batch;
      batch = [];
    }
    await refill(first);
  }
  if (batch.length > 0) yield batch;
}
