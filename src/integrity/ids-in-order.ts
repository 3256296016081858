import { ModelScope } from './model-scope';
import { raw } from './raw-commands';

/**
 * The ids of a scope's `all`, at most `batchSize` at a time, in `all`'s own order (docs/keys.md): by score, so
 * sequence ids in the order they were drawn, and ids of one score (uuids, all scored 0) by their bytes. ZSCAN
 * gives that order only while `all` is a listpack (up to 128 members): above, it gives the hash table's. Each
 * window is a ZRANGE from the last id read, not an offset, so ids written or removed meanwhile shift nothing:
 * every id present from start to end is read exactly once, in order.
 * - every id scored 0 (a model with uuids): BYLEX windows, each after the last id read;
 * - otherwise BYSCORE windows from the last score read, the ids of that score already read left out. Ids share a
 *   score only when several are scored 0 (uuids written before the model took sequence ids): each window then
 *   reads those again, so such a group costs more the larger it is.
 */
export async function* idsInOrder(scope: ModelScope, batchSize: number): AsyncGenerator<string[]> {
  const client = raw(scope.client);
  const all = scope.keys.all;
  const [zeros, total] = await Promise.all([client.zCount(all, 0, 0), client.zCard(all)]);
  if (zeros === total) {
    let min = '-';
    for (;;) {
      const ids = await client.zRange(all, min, '+', { BY: 'LEX', LIMIT: { offset: 0, count: batchSize } });
      if (ids.length > 0) yield ids;
      if (ids.length < batchSize) return;
      min = `(${ids[ids.length - 1]}`;
    }
  }
  let score = -Infinity;
  let read = new Set<string>(); // the ids of `score` read so far
  for (;;) {
    const limit = batchSize + read.size;
    const page = await client.zRangeWithScores(all, score, '+inf', { BY: 'SCORE', LIMIT: { offset: 0, count: limit } });
    const ids: string[] = [];
    for (const { value, score: at } of page) {
      if (at === score && read.has(value)) continue;
      if (at !== score) [score, read] = [at, new Set()];
      read.add(value);
      ids.push(value);
    }
    if (ids.length > 0) yield ids;
    if (page.length < limit) return;
  }
}
