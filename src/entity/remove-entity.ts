import { activeConnection } from '../redis/connection';
import { ObjectStore, Removal, RemoveOutcome } from '../store/object-store';
import { ModelDescriptor } from '../model/model-descriptor';
import { removalPlan, restrictedRemoval } from '../store/removal-program';
import { crossSlotRemoval } from '../store/cross-slot';
import { EncodedFields } from '../mapper/encoded-fields';
import { sameValue, UniqueClaims, uniqueValues } from '../store/unique-claims';
import { claimsUniques } from './claimed-write';
import { descriptorOf } from '../model/model-registry';
import { replicaShortfalls } from './lifecycle/replica-waits';
import { afterRemoval, beforeRemoval, hasRemoveSteps } from './lifecycle/remove-lifecycle';
import { afterSchema } from '../schema/first-use';
import { markRemoved, requireId, snapshotOf, stateOf } from './entity-state';

/**
 * remove() of one instance: the remove lifecycle (lifecycle/remove-lifecycle.ts) around the write, when the
 * model has a step to run; the write alone otherwise. The instance is then removed: it keeps its id. Rejects,
 * never throws.
 */
export function removeEntity(entity: object): Promise<void> {
  try {
    const model = descriptorOf(entity.constructor);
    const id = requireId(model, entity);
    if (hasRemoveSteps(model)) return removeWithSteps(model, entity, id);
    return afterSchema(model, () => removeObject(model, id, snapshotOf(stateOf(entity)))).then(() => markRemoved(entity));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** remove() with its steps around the write; a replica shortfall is thrown after them (the remove stands). */
async function removeWithSteps(model: ModelDescriptor, entity: object, id: string): Promise<void> {
  await beforeRemoval(model, entity);
  await afterSchema(model, () => removeObject(model, id, snapshotOf(stateOf(entity))));
  const shortfalls = await replicaShortfalls(model, new Map([[id, 'remove']]), model.replicas);
  await afterRemoval(model, entity);
  const shortfall = shortfalls.get(id);
  if (shortfall) throw shortfall;
}

/**
 * remove() of an object of a sharded model with unique values: its values are free at once. The values it holds
 * are read from its shard first (an instance loaded before another one changed them holds old ones), and after
 * the removal the claims of those and of the instance's `loaded` values are released: the object holds none
 * now, and a claim naming it is released only while it is still its (compare-and-delete). A sharded model has
 * no relations: no onDelete rule can forbid the removal.
 */
async function removeReleasing(
  model: ModelDescriptor,
  store: ObjectStore,
  id: string,
  removal: Removal,
  loaded: EncodedFields,
): Promise<RemoveOutcome> {
  const claims = new UniqueClaims(model, activeConnection());
  const stored = await claims.stored(id);
  const outcome = await store.remove(id, removal);
  const known = uniqueValues(model, loaded).filter((value) => !stored.some((s) => sameValue(s, value)));
  await claims.release(id, [...stored, ...known]);
  return outcome;
}

/**
 * The write step of remove(): one script that checks every onDelete 'restrict' of the cascade, then removes
 * the object, its entries, cascaded children, nullified foreign keys and memberships together. A model with
 * nothing but its own hash to remove uses remove-plain.lua instead, and one with only index entries beside it a script
 * that removes those alone (the plan says which). Resolves to whether the object existed.
 */
export function removeObject(model: ModelDescriptor, id: string, loaded?: EncodedFields): Promise<RemoveOutcome> {
  const connection = activeConnection();
  const store = new ObjectStore(model, connection);
  const program = removalPlan(model, connection.prefix, id);
  const crossing = crossSlotRemoval(program, connection);
  if (crossing) return Promise.reject(crossing);
  if (loaded && claimsUniques(model)) return removeReleasing(model, store, id, program.removal, loaded);
  // only remove.lua (a model with relations) can answer that a 'restrict' rule forbids the removal
  if (program.removal.kind !== 'program') return store.remove(id, program.removal);
  return store.remove(id, program.removal).then((outcome) => {
    if (!('restrictedBy' in outcome)) return outcome;
    throw restrictedRemoval(program, id, outcome.restrictedBy);
  });
}
