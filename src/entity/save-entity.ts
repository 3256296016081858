import { descriptorOf } from '../model/model-registry';
import { operationReplicaPolicy } from '../model/replica-policy';
import { knownOptions } from '../errors/options-argument';
import { afterSchema } from '../schema/first-use';
import type { Persisted, SaveOptions } from '../types/entity-types';
import { isRemovedInstance, serialized, stateOf } from './entity-state';
import { runSaveLifecycle } from './lifecycle/save-lifecycle';
import { SAVE_OPTIONS } from './option-names';
import { hasSaveHooks } from './run-hooks';
import { hasValidationRules } from './validate-entity';
import { validateOption } from './validate-option';
import { refuseFrozen } from './writable-instance';
import { writeEntity } from './write-entity';
import { expiryMs } from './expiry';

/**
 * save() of one instance: the save lifecycle (lifecycle/save-lifecycle.ts) over a batch of one, after the
 * instance's operations under way. Without a hook, a validation rule or a replica to wait for, the write alone.
 */
export function saveEntity<E extends object>(entity: E, given: SaveOptions | undefined): Promise<Persisted<E>> {
  return serialized(entity, async () => {
    const options = knownOptions('save', given, SAVE_OPTIONS);
    const validate = validateOption('save', options.validate);
    const model = descriptorOf(entity.constructor);
    if (model.version) refuseFrozen(model, entity, 'save');
    const replicas = operationReplicaPolicy(model.name, options, model.replicas); // bad options: before any write
    const ttl = options.ttl === undefined ? undefined : expiryMs(model, options.ttl, 'ttl must be');
    const state = stateOf(entity);
    if (!replicas && !hasSaveHooks(model) && (!validate || !hasValidationRules(model)) && !isRemovedInstance(entity)) {
      await afterSchema(model, () => writeEntity(model, entity, state, ttl));
      return entity as Persisted<E>;
    }
    let failure: { error: unknown } | undefined;
    await runSaveLifecycle(
      model,
      { indexes: [0], entities: [entity], states: [state] },
      { validate, replicas },
      async (ready, _creating, written) => {
        if (ready.length === 0) return;
        // its error is the save's own, as it is: not one failure among others
        await afterSchema(model, () => writeEntity(model, entity, state, ttl));
        written[0] = 1;
      },
      (_index, _entity, error) => (failure ??= { error }),
    );
    if (failure) throw failure.error;
    return entity as Persisted<E>;
  });
}
