import { ModelKeys } from '../keys/model-keys';
import { ModelDescriptor } from '../model/model-descriptor';
import { nextShard } from './shard-turns';

/**
 * Where a bulk write of one object goes: the keys of the model (its key base, sequence and `all`; a shard's for
 * a sharded model). Items with the same key base share a script call, so this is the one place that decides it.
 */
export interface BulkTarget {
  readonly keys: ModelKeys;
}

const unsharded = new WeakMap<ModelDescriptor, Map<string, BulkTarget>>();

/** The target of a new object (`id` undefined: it takes a sequence number) or of an existing one. */
export function bulkTarget(model: ModelDescriptor, prefix: string, id: string | undefined): BulkTarget {
  if (model.shards === 1) return onlyTarget(model, prefix);
  // a new object of a sharded model goes to the next shard in turn; an existing one (or a given id) to its own
  const keys = id === undefined ? model.shardKeys(prefix)[nextShard(model)] : model.keysOf(prefix, id);
  return { keys };
}

/** A model that is not sharded has one target per prefix, made once (bulk calls ask for it per item). */
export function onlyTarget(model: ModelDescriptor, prefix: string): BulkTarget {
  let byPrefix = unsharded.get(model);
  if (!byPrefix) unsharded.set(model, (byPrefix = new Map()));
  let target = byPrefix.get(prefix);
  if (!target) {
    const keys = model.shardKeys(prefix)[0];
    target = { keys };
    byPrefix.set(prefix, target);
  }
  return target;
}

/** Groups items by the key base of their target, keeping the given order within each group. */
export function groupByTarget<I>(items: readonly I[], targetOf: (item: I) => BulkTarget): Array<{ target: BulkTarget; items: I[] }> {
  const groups = new Map<string, { target: BulkTarget; items: I[] }>();
  for (const item of items) {
    const target = targetOf(item);
    let group = groups.get(target.keys.base);
    if (!group) groups.set(target.keys.base, (group = { target, items: [] }));
    group.items.push(item);
  }
  return [...groups.values()];
}
