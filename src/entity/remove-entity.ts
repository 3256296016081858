import { activeConnection } from '../connection/connection';
import { ObjectStore, RemoveOutcome } from '../mapper/object-store';
import { ModelDescriptor } from '../metadata/model-descriptor';
import { removalPlan, restrictedRemoval } from '../relations/removal-program';
import { crossSlotRemoval } from '../relations/cross-slot';
import { EncodedFields } from '../mapper/encoded-fields';
import { UniqueClaims, uniqueValues } from '../mapper/unique-claims';
import { claimsUniques } from './claimed-write';
import { descriptorOf } from '../metadata/model-registry';
import { replicaShortfall } from '../connection/wait-replicas';
import { afterSchema } from '../schema/first-use';
import { requireId, snapshotOf, stateOf } from './entity-state';
import { hasRemoveHooks, runHooks } from './run-hooks';

/**
 * remove() of one instance: its hooks (when the model has any), the write, the replicas (when asked), and the
 * instance left unsaved. Rejects, never throws.
 */
export function removeEntity(entity: object): Promise<void> {
  try {
    const model = descriptorOf(entity.constructor);
    const id = requireId(model, entity);
    if (model.replicas || hasRemoveHooks(model)) return removeWithHooks(model, entity, id);
    // nothing to run around the write (no hook, no replica to wait for): the write alone
    const state = stateOf(entity);
    return afterSchema(model, () => removeObject(model, id, snapshotOf(state))).then(() => {
      state.stored = undefined;
      state.id = undefined;
    });
  } catch (error) {
    return Promise.reject(error);
  }
}

/** remove() with its hooks around the write; a replica shortfall is thrown after them (the remove stands). */
async function removeWithHooks(model: ModelDescriptor, entity: object, id: string): Promise<void> {
  await runHooks(model, entity, 'beforeRemove');
  await afterSchema(model, () => removeObject(model, id, snapshotOf(stateOf(entity))));
  const shortfall = await replicaShortfall(model, id, 'remove', model.replicas);
  const state = stateOf(entity);
  state.stored = undefined;
  try {
    await runHooks(model, entity, 'afterRemove');
  } finally {
    state.id = undefined;
  }
  if (shortfall) throw shortfall;
}

/**
 * The write step of remove(): one script that checks every onDelete 'restrict' of the cascade, then removes
 * the object, its entries, cascaded children, nullified foreign keys and memberships together. A model with
 * nothing but its own hash to remove uses a MULTI instead, and one with only index entries beside it a script
 * that removes those alone (the plan says which). Resolves to whether the object existed.
 */
export function removeObject(model: ModelDescriptor, id: string, held?: EncodedFields): Promise<RemoveOutcome> {
  const connection = activeConnection();
  const store = new ObjectStore(model, connection);
  const program = removalPlan(model, connection.prefix, id);
  const crossing = crossSlotRemoval(program, connection);
  if (crossing) return Promise.reject(crossing);
  if (held && claimsUniques(model)) {
    // a sharded model's unique values are free at once (without `held`, their claims go stale and are taken over)
    return store.remove(id, program.removal).then(async (outcome) => {
      await new UniqueClaims(model, connection).release(id, uniqueValues(model, held));
      return outcome;
    });
  }
  // only remove.lua (a model with relations) can answer that a 'restrict' rule forbids the removal
  if (program.removal.kind !== 'program') return store.remove(id, program.removal);
  return store.remove(id, program.removal).then((outcome) => {
    if (!('restrictedBy' in outcome)) return outcome;
    throw restrictedRemoval(program, id, outcome.restrictedBy);
  });
}
