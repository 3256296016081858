import { describeValue } from '../util/describe-value';
import { ArgumentError, DecodeError, NotFoundError, RedisRecordError } from '../errors/errors';
import { activeStore } from './active-store';
import { ModelDescriptor } from '../model/model-descriptor';
import { EntityState, snapshotOf } from './entity-state';

/**
 * One increment.lua call (the sum in a double, stored as the number codec stores it) with its index entries
 * moved in the same script; the instance's value and snapshot take the stored result, so a later save() does
 * not write the counter back.
 */
export async function incrementCounter(
  model: ModelDescriptor,
  entity: object,
  state: EntityState,
  property: string,
  amount: number,
): Promise<number> {
  const attribute = typeof property === 'string' ? model.attribute(property) : undefined;
  if (!attribute || attribute.role !== 'counter') {
    throw new ArgumentError(
      `${model.name}.${typeof property === 'string' ? property : describeValue(property)} is not a @Counter attribute`,
    );
  }
  if (typeof amount !== 'number' || !Number.isFinite(amount)) {
    throw new ArgumentError(`${model.name}.${property}: increment takes a finite number`);
  }
  const snapshot = snapshotOf(state);
  if (snapshot === undefined || state.id === undefined) throw new RedisRecordError(`${model.name}: this instance is not saved`);
  const outcome = await activeStore(model).increment(state.id, attribute.field, amount);
  if ('gone' in outcome) throw new NotFoundError(model.name, state.id);
  if ('outOfRange' in outcome) {
    throw new ArgumentError(`${model.name}.${property}: adding ${amount} would leave the range of finite numbers; nothing was written`);
  }
  if ('unreadable' in outcome) {
    // as find() would report it; the value is left as it is for the application to repair
    throw new DecodeError(model.name, state.id, property, `not a number: ${describeValue(outcome.unreadable)}; nothing was written`);
  }
  const { stored } = outcome;
  const value = Number(stored);
  (entity as Record<string, unknown>)[property] = value;
  snapshot.set(attribute.field, stored);
  return value;
}
