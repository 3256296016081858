import { shardScopes, type ModelScope } from '../integrity/model-scope';

/** What countObjects finds in a scope. */
export interface ObjectCounts {
  /** Objects every read sees: those in `all`, less the expired ones. */
  readonly live: number;
  /** Objects whose time to live has passed: invisible, and deleted by the next sweep. */
  readonly expired: number;
}

/**
 * The live and expired objects of a scope (every shard of a sharded model), as `Model.count()` counts: `all`'s
 * size, less the ids `exp` holds with a time already past. Two commands per shard.
 */
export async function countObjects(scope: ModelScope): Promise<ObjectCounts> {
  let listed = 0;
  let expired = 0;
  const now = Date.now();
  for (const shard of shardScopes(scope)) {
    const [all, due] = await Promise.all([shard.client.zCard(shard.keys.all), shard.client.zCount(shard.keys.expiring, '-inf', now)]);
    listed += all;
    expired += due;
  }
  return { live: listed - expired, expired };
}
