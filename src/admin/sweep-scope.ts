import { shardScopes, type ModelScope } from '../integrity/model-scope';
import { callScript } from '../store/entry-script';
import { sweepScript } from '../store/lua/sweep';

/** Options of sweepScope. */
export interface SweepOptions {
  /** Objects deleted per script call (default 1000), as `Model.sweep()` does: Redis is never blocked long. */
  readonly batchSize?: number;
  /** Called after each script call with how many objects it deleted. */
  readonly onProgress?: (deleted: number) => void;
}

/**
 * Deletes every expired object of the scope (each shard of a sharded model) with its hash, memo, index and
 * unique entries (sweep.lua, from each object's memo), as `Model.sweep()` does. Resolves to how many.
 */
export async function sweepScope(scope: ModelScope, options: SweepOptions = {}): Promise<number> {
  const batch = options.batchSize ?? 1000;
  let swept = 0;
  for (const shard of shardScopes(scope)) {
    for (;;) {
      const deleted = await callScript(shard.client, sweepScript, { keys: shard.keys, batch });
      swept += deleted;
      options.onProgress?.(deleted);
      if (deleted < batch) break;
    }
  }
  return swept;
}
