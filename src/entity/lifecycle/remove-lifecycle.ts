import { ModelDescriptor } from '../../model/model-descriptor';
import { markRemoved } from '../entity-state';
import { hasRemoveHooks, runHooks } from '../run-hooks';

/**
 * The remove lifecycle, written once for remove(), removeMany() and removeBy():
 *
 * 1. BeforeRemove of each instance, in order (removeMany loads the objects first, so hooks run on instances
 *    holding the stored attributes); an instance whose hook throws is not removed;
 * 2. the removals, by the caller;
 * 3. the replica wait (`waitReplicas` of the model), for every removed object at once (replica-waits.ts);
 * 4. for each removed instance, in order: it is marked removed (it keeps its id, isPersisted() is false and
 *    isRemoved() true), then AfterRemove; then its replica shortfall, if any, is its failure (the removal
 *    stands).
 */

/** Whether the model has a step around a removal of an instance: a hook, or replicas to wait for. */
export function hasRemoveSteps(model: ModelDescriptor): boolean {
  return model.replicas !== undefined || hasRemoveHooks(model);
}

/** Step 1 for one instance: its BeforeRemove hooks. */
export function beforeRemoval(model: ModelDescriptor, entity: object): Promise<void> | undefined {
  return runHooks(model, entity, 'beforeRemove');
}

/**
 * Step 4 for one instance whose object is gone: the instance is removed (for good, even when a hook throws),
 * then its AfterRemove hooks run. Rejects with what a hook threw.
 */
export async function afterRemoval(model: ModelDescriptor, entity: object): Promise<void> {
  markRemoved(entity);
  await runHooks(model, entity, 'afterRemove');
}
