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
  for (const [shard, positions] of byShard) {
    const first = await store.drawIds({ keys: model.shardKeys(prefix)[shard] }, positions.length);
    for (let k = 0; k < positions.length; k++) {
      const drawn = first + k;
      ids[positions[k]] = String(model.shards === 1 ? drawn : (drawn - 1) * model.shards + shard + 1);
    }
  }
  return ids;
}
