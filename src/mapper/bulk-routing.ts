import { ModelKeys } from '../keys/model-keys';
import { ModelDescriptor } from '../metadata/model-descriptor';

/**
 * Where a bulk write of one object goes: the keys of the model (its key base, sequence and `all`) and the id
 * form save-many.lua's ARGV[7] takes ('0' given ids, '1' sequence ids, 'n:s' shard s of n). Items with the
 * same key base share a script call, so this is the one place that decides it: an object of a model whose
 * objects live under several key bases is routed here.
 */
export interface BulkTarget {
  readonly keys: ModelKeys;
  readonly idForm: string;
}

/** The target of a new object (`id` undefined: it takes a sequence number) or of an existing one. */
export function bulkTarget(model: ModelDescriptor, prefix: string, id: string | undefined): BulkTarget {
  void id; // every object of a model lives under the model's one key base
  return { keys: model.keys(prefix), idForm: model.idStrategy === 'sequence' ? '1' : '0' };
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
