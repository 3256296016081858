import { foldedAttributes, foldsOf, repairObject } from '../integrity/apply-fix';
import { DEFAULT_BATCH_SIZE } from '../integrity/check-model';
import { idsInOrder } from '../integrity/ids-in-order';
import { shardScopes, type ModelScope } from '../integrity/model-scope';

/** Options of rebuildIndexes. */
export interface RebuildOptions {
  /** Objects read per round trip (default 500). */
  readonly batchSize?: number;
  /** Called after each batch with how many objects it rewrote. */
  readonly onProgress?: (objects: number) => void;
}

/** What rebuildIndexes did. */
export interface RebuildResult {
  /** Objects whose entries were rewritten. */
  readonly objects: number;
  /**
   * What repair-object.lua found per object, counted: `rebuilt`, `conflict` (a unique value another live
   * object holds), `unindexable` (a score-indexed value that is no number), `not a hash`, `expired`, ...
   */
  readonly outcomes: Record<string, number>;
}

/**
 * Rewrites every object's entries of every index of the stored definition (and its memo), one atomic script call
 * per object, each shard of a sharded model on its own. Objects go in id order, so that of objects holding one
 * unique value and none owning it, the first takes it. Leaves entries no object calls for: repairScope removes
 * them. Safe while the application writes with the same definition.
 */
export async function rebuildIndexes(scope: ModelScope, options: RebuildOptions = {}): Promise<RebuildResult> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const folded = foldedAttributes(scope.definition.indexes);
  const outcomes: Record<string, number> = {};
  let objects = 0;
  for (const shard of shardScopes(scope)) {
    for await (const ids of idsInOrder(shard, batchSize)) {
      const folds = await foldsOf(shard, ids, folded);
      const results = await Promise.all(ids.map((id, i) => repairObject(shard, id, folds[i], shard.definition.indexes, 'full')));
      for (const outcome of results) outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      objects += ids.length;
      options.onProgress?.(ids.length);
    }
  }
  return { objects, outcomes };
}
