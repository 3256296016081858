import { ModelKeys } from '../keys/model-keys';
import { ModelDescriptor } from '../metadata/model-descriptor';

/**
 * Where a bulk write of one object goes: the keys of the model (its key base, sequence and `all`) and the id
 * form save-many.lua's ARGV[7] takes ('0' given ids, '1' sequence ids, 'n:s' shard s of n). Items with the
 * same key base share a script call, so this is the one place that decides it.
 */
export interface BulkTarget {
  readonly keys: ModelKeys;
  readonly idForm: string;
}

/**
 * Whether objects of the model must be written one save.lua call each (still pipelined) instead of in
 * chunks: a model spread over several key bases (shards) draws ids and claims unique values per object.
 */
export function writesOneByOne(model: ModelDescriptor): boolean {
  return ((model as { shards?: number }).shards ?? 1) > 1;
}

const targets = new WeakMap<ModelDescriptor, Map<string, BulkTarget>>();

/**
 * The target of a new object (`id` undefined: it takes a sequence number) or of an existing one. Every object
 * of a model that is written in chunks lives under the model's one key base (see writesOneByOne).
 */
export function bulkTarget(model: ModelDescriptor, prefix: string, id: string | undefined): BulkTarget {
  void id;
  let byPrefix = targets.get(model);
  if (!byPrefix) targets.set(model, (byPrefix = new Map()));
  let target = byPrefix.get(prefix);
  if (!target) {
    target = { keys: model.keys(prefix), idForm: model.idStrategy === 'sequence' ? '1' : '0' };
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
