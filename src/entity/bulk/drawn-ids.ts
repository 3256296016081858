import { shardSequenceId } from '../../keys/id-format';
import { ModelDescriptor } from '../../model/model-descriptor';
import { BulkStore } from '../../store/bulk-store';
import { nextShard } from '../../store/shard-turns';
import { stateOf } from '../entity-state';

/**
 * The sequence ids of a bulk create, drawn before its writes (one draw per shard): an entity whose chunk's reply
 * is lost then keeps the id it was sent with, and a retry finds it (unsure-creates.ts). An entity that keeps an id
 * from such a loss takes it again. An entity refused later leaves its drawn id unused.
 */
export async function drawnIds(model: ModelDescriptor, store: BulkStore, prefix: string, entities: readonly object[]): Promise<string[]> {
  const ids = new Array<string>(entities.length);
  const byShard = new Map<number, number[]>();
  for (let at = 0; at < entities.length; at++) {
    const kept = stateOf(entities[at]).id;
    if (kept !== undefined) ids[at] = kept;
    else {
      const shard = nextShard(model);
      const positions = byShard.get(shard);
      if (positions) positions.push(at);
      else byShard.set(shard, [at]);
    }
  }
  // one draw per shard, sent together
  await Promise.all(
    [...byShard].map(async ([shard, positions]) => {
      const first = await store.drawIds({ keys: model.shardKeys(prefix)[shard] }, positions.length);
      positions.forEach((position, k) => (ids[position] = shardSequenceId(model.name, model.shards, shard, first + k)));
    }),
  );
  return ids;
}
