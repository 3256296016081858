import { NotFoundError } from '../errors/errors';
import { descriptorOf } from '../model/model-registry';
import { afterSchema } from '../schema/first-use';
import { activeStore } from './active-store';
import { incrementCounter } from './counters';
import { requireId, serialized, stateOf } from './entity-state';
import { expireObject, persistObject, ttlOf } from './expiry';
import { replicaShortfalls } from './lifecycle/replica-waits';
import { applyStored } from './materialize';
import { refuseFrozen } from './writable-instance';

/**
 * The instance operations besides save() and remove(): each waits for the instance's operations under way
 * (`entity.save(); entity.expire(5)` expires the object the save creates), and refuses an instance that is not
 * saved, or was removed.
 */

/** reload(): reads the stored attributes again, dropping unsaved changes. NotFoundError if the object is gone. */
export function reloadEntity<E extends object>(entity: E): Promise<E> {
  return serialized(entity, async () => {
    const model = descriptorOf(entity.constructor);
    const id = requireId(model, entity);
    refuseFrozen(model, entity, 'reload');
    const fields = await afterSchema(model, () => activeStore(model).loadOne(id));
    if (!fields) throw new NotFoundError(model.name, id);
    await applyStored(model, entity, id, fields);
    return entity;
  });
}

/** increment(): adds `amount` to a counter in one atomic command; the new value, after the model's replica wait. */
export function incrementEntity(entity: object, property: string, amount: number): Promise<number> {
  return serialized(entity, async () => {
    const model = descriptorOf(entity.constructor);
    refuseFrozen(model, entity, 'increment');
    return afterSchema(model, async () => {
      const value = await incrementCounter(model, entity, stateOf(entity), property, amount);
      const id = stateOf(entity).id!;
      const shortfall = (await replicaShortfalls(model, new Map([[id, 'increment']]), model.replicas)).get(id);
      if (shortfall) throw shortfall;
      return value;
    });
  });
}

/** expire(): the object lives `seconds` more. */
export function expireEntity(entity: object, seconds: number): Promise<void> {
  return serialized(entity, async () => {
    const model = descriptorOf(entity.constructor);
    const id = requireId(model, entity);
    await afterSchema(model, () => expireObject(model, id, seconds));
  });
}

/** persist(): the object's time to live is removed. */
export function persistEntity(entity: object): Promise<void> {
  return serialized(entity, async () => {
    const model = descriptorOf(entity.constructor);
    const id = requireId(model, entity);
    await afterSchema(model, () => persistObject(model, id));
  });
}

/** ttl(): seconds the object has left, or null when it does not expire. */
export function entityTtl(entity: object): Promise<number | null> {
  return serialized(entity, async () => {
    const model = descriptorOf(entity.constructor);
    const id = requireId(model, entity);
    return afterSchema(model, () => ttlOf(model, id));
  });
}
