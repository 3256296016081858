import { activeConnection } from '../../redis/connection';
import { asError } from '../../errors/as-error';
import { describeValue } from '../../util/describe-value';
import { ArgumentError } from '../../errors/errors';
import { ModelDescriptor } from '../../model/model-descriptor';
import { descriptorOf } from '../../model/model-registry';
import type { SaveManyFailure, SaveManyItem, SaveManyOptions, SaveManyResult } from '../../types/bulk-types';
import type { AttributeInput, EntityClass } from '../../types/entity-types';
import { chunkSizeOption, SAVE_CHUNK_SIZE } from './bulk-options';
import { holdAllUntil, StateClaims, StatefulEntity, stateOf } from '../entity-state';
import { knownOptions } from '../../errors/options-argument';
import { SAVE_MANY_OPTIONS } from '../option-names';
import { refuseFrozen } from '../writable-instance';
import { validateOption } from '../validate-option';
import { isAttributeObject } from '../../util/attribute-object';
import { operationReplicaPolicy } from '../../model/replica-policy';
import { runSaveLifecycle, SaveBatch } from '../lifecycle/save-lifecycle';
import { bulkWriter } from './save-writes';
import { settleUnsure } from './unsure-creates';

/**
 * Saves many entities as save() saves each one: the same lifecycle (lifecycle/save-lifecycle.ts: hooks in the
 * same order, validation, replica waits) and the same per-object atomic write, but with the writes sent together
 * in chunks (save-writes.ts). One item's failure (before or at its write) writes nothing of that item and does
 * not stop the others; the result says which failed and why.
 *
 * Order: every item's BeforeValidate, validation, BeforeSave and BeforeCreate/BeforeUpdate run first, item by
 * item in the given order; then the writes; then AfterCreate/AfterUpdate and AfterSave of each saved item, in
 * order.
 */
export async function saveMany<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  given: ReadonlyArray<SaveManyItem<T>>,
  options?: SaveManyOptions,
): Promise<SaveManyResult<T>> {
  if (!Array.isArray(given))
    throw new ArgumentError(`saveMany: expected an array of entities or attribute objects, got ${describeValue(given)}`);
  const settings = knownOptions('saveMany', options, SAVE_MANY_OPTIONS);
  const validate = validateOption('saveMany', settings.validate);
  const chunkSize = chunkSizeOption('saveMany', settings.chunkSize, SAVE_CHUNK_SIZE);
  const model = descriptorOf(ctor);
  // bad waitReplicas or waitTimeoutMs: an ArgumentError before any hook runs, as for save()
  const replicas = operationReplicaPolicy(model.name, settings, model.replicas);
  activeConnection(); // no connection: the whole call fails at once, before any hook runs
  const failed: Array<SaveManyFailure<T>> = [];
  const fail = (index: number, entity: T | undefined, error: unknown, written = false) =>
    failed.push({ index, entity, error: asError(error), written });

  // sized once (a bulk load's arrays would otherwise be copied as they grow), cut to the instances found
  const batch: SaveBatch<T> = { indexes: new Array(given.length), entities: new Array(given.length), states: new Array(given.length) };
  let count = 0;
  for (let index = 0; index < given.length; index++) {
    let entity: T | undefined;
    try {
      entity = instanceFor(ctor, model, given[index]);
      // a frozen instance is the item's own, and reported with it
      if (model.version) refuseFrozen(model, entity, 'saveMany');
      batch.entities[count] = entity;
      batch.indexes[count++] = index;
    } catch (error) {
      fail(index, entity, error);
    }
  }
  // Each instance once, found by claiming its state (entity-state.ts); from here to holdAllUntil nothing waits
  // and no user code runs. The index of an instance's first place is looked up only once a repeat is found.
  const claims = new StateClaims();
  let firstIndex: Map<object, number> | undefined;
  let kept = 0;
  for (let at = 0; at < count; at++) {
    const entity = batch.entities[at];
    const index = batch.indexes[at];
    const state = stateOf(entity);
    if (!claims.claim(state)) {
      firstIndex ??= firstIndexes(batch, kept);
      const first = firstIndex.get(entity);
      fail(
        index,
        entity,
        new ArgumentError(`${model.name}.saveMany: the same instance is at index ${first} and ${index}; it is saved once`),
      );
      continue;
    }
    firstIndex?.set(entity, index);
    batch.indexes[kept] = index;
    batch.entities[kept] = entity;
    batch.states[kept++] = state;
  }
  batch.indexes.length = batch.entities.length = batch.states.length = kept;

  // Like save(), wait for whatever this call's instances are still doing, and make their next operation wait.
  const write = bulkWriter(model, batch.entities, batch.states, chunkSize);
  // instances whose earlier create lost its reply are settled first (unsure-creates.ts): created, or sent again
  const work = claims
    .idle()
    .then(() => settleUnsure(batch.states))
    .then(() => runSaveLifecycle(model, batch, { validate, replicas }, write, fail));
  holdAllUntil(batch.states, work);
  const saved = await work;
  failed.sort((a, b) => a.index - b.index);
  return { ok: failed.length === 0, saved, failed };
}

/** The given index of each of the first `kept` instances of the batch. */
function firstIndexes<T>({ indexes, entities }: SaveBatch<T>, kept: number): Map<object, number> {
  const first = new Map<object, number>();
  for (let at = 0; at < kept; at++) first.set(entities[at] as object, indexes[at]);
  return first;
}

/**
 * The instance an item stands for: itself when it is an instance of the model, else one built from it as create()
 * builds one from its argument (an attribute object: a literal, or an instance of a class of the caller's own).
 * Refused (ArgumentError): an entity of another model or scope; an object with the model's prototype that its
 * constructor did not make; and an object whose contents are not properties (a Date, a Map: its internal slots
 * are its data, and it would be read as no attributes at all), as build() and create() refuse it (isAttributeObject).
 */
function instanceFor<T extends StatefulEntity>(ctor: EntityClass<T>, model: ModelDescriptor, item: unknown): T {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new ArgumentError(`${model.name}.saveMany: expected an entity or an attribute object, got ${describeValue(item)}`);
  }
  const prototype = Object.getPrototypeOf(item);
  // a literal first: a bulk load's items mostly are
  if (prototype === Object.prototype || prototype === null) return built(ctor, item);
  if (prototype === ctor.prototype) {
    stateOf(item); // ArgumentError for an object no constructor made (Object.create, a Proxy)
    return item as T;
  }
  if (item instanceof StatefulEntity) {
    throw new ArgumentError(`${model.name}.saveMany: ${describeValue(item)} instance is not a ${model.name} of this scope`);
  }
  if (!isAttributeObject(item)) {
    throw new ArgumentError(`${model.name}.saveMany: expected a ${model.name} instance or an attribute object, got ${describeValue(item)}`);
  }
  return built(ctor, item);
}

/** A new instance built from `input`, as build() builds one: unknown attributes are a ValidationError, as for create(). */
function built<T extends StatefulEntity>(ctor: EntityClass<T>, input: object): T {
  return (ctor as unknown as { build(attributes: AttributeInput<T>): T }).build(input as AttributeInput<T>);
}
