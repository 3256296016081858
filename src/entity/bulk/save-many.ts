import { activeConnection } from '../../redis/connection';
import { asError } from '../../errors/as-error';
import { describeValue } from '../../util/describe-value';
import { ArgumentError } from '../../errors/errors';
import { HookKind } from '../../model/hook-kind';
import { ModelDescriptor } from '../../model/model-descriptor';
import { descriptorOf } from '../../model/model-registry';
import { afterSchema } from '../../schema/first-use';
import type { SaveManyFailure, SaveManyItem, SaveManyOptions, SaveManyResult } from '../../types/bulk-types';
import type { AttributeInput, EntityClass, Persisted } from '../../types/entity-types';
import { chunkSizeOption, SAVE_CHUNK_SIZE, UPDATES_IN_FLIGHT } from './bulk-options';
import { eachInFlight } from './bulk-windows';
import { createMany } from './create-many';
import { updateMany } from './update-many';
import { EntityState, holdAllUntil, StateClaims, StatefulEntity, stateOf } from '../entity-state';
import { knownOptions } from '../../errors/options-argument';
import { SAVE_MANY_OPTIONS } from '../option-names';
import { refuseFrozen } from '../writable-instance';
import { runHooks } from '../run-hooks';
import { hasValidationRules, validateEntity } from '../validate-entity';
import { validateOption } from '../validate-option';
import { isAttributeObject } from '../../util/attribute-object';
import { writeEntity } from '../write-entity';
import { claimsUniques } from '../claimed-write';
import { entangledItems } from './claim-order';
import { bulkReplicaShortfalls } from './bulk-replicas';
import { operationReplicaPolicy, ReplicaPolicy } from '../../model/replica-policy';
import { ReplicationError } from '../../errors/errors';

/**
 * The instances of a saveMany call, position by position: each one's index in the given list, the instance
 * and its state. (Three arrays, not an object per item: a call may hold millions.)
 */
interface Batch<T> {
  readonly indexes: number[];
  readonly entities: T[];
  readonly states: EntityState[];
}

/**
 * Saves many entities as save() saves each one: the same hooks in the same order, the same validation and the
 * same per-object atomic write, but with the writes sent together in chunks: changes to loaded objects with
 * one update-many.lua call per chunk, new objects with one save-many.lua call (or one MULTI) per chunk. One
 * item's failure (before or at its write) writes nothing of that item and does not stop the others; the
 * result says which failed and why.
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
  const batch: Batch<T> = { indexes: new Array(given.length), entities: new Array(given.length), states: new Array(given.length) };
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
  const work = claims.idle().then(() => saveItems(model, batch, validate, chunkSize, replicas, fail));
  holdAllUntil(batch.states, work);
  const saved = await work;
  failed.sort((a, b) => a.index - b.index);
  return { ok: failed.length === 0, saved, failed };
}

async function saveItems<T extends StatefulEntity>(
  model: ModelDescriptor,
  { indexes, entities, states }: Batch<T>,
  validate: boolean,
  chunkSize: number,
  replicas: ReplicaPolicy | undefined,
  fail: (index: number, entity: T, error: unknown, written?: boolean) => void,
): Promise<Array<Persisted<T>>> {
  // The call's lists of one entry per item are sized once, never grown (a list grown item by item is copied
  // each time it grows), and its flags are bytes: past about 16,000 items a list is memory of its own, taken
  // fresh from the kernel on every call, and on the virtual machines the suite runs on each fresh 4 KiB page
  // costs about 12 us (docs/bulk-operations.md, "Memory Redis takes back").
  // 1 for an instance to create: known once the instances' earlier operations have settled (a save under way
  // may have created one)
  const creating = new Uint8Array(entities.length);
  for (let at = 0; at < entities.length; at++) creating[at] = states[at].stored === undefined ? 1 : 0;
  // the positions of the instances that passed the steps before their write
  const ready: number[] = new Array(entities.length);
  let readyCount = 0;
  const stepsBefore = hasBeforeSteps(model, validate);
  for (let at = 0; at < entities.length; at++) {
    if (!stepsBefore) {
      ready[readyCount++] = at;
      continue;
    }
    try {
      await before(model, entities[at], creating[at] === 1, validate);
      ready[readyCount++] = at;
    } catch (error) {
      fail(indexes[at], entities[at], error);
    }
  }
  ready.length = readyCount;

  // 1 for an instance written
  const written = new Uint8Array(entities.length);
  await afterSchema(model, async () => {
    // Changes to loaded objects first, in chunks (update-many.lua), then the new objects, in chunks. A sharded
    // model's unique values are claimed object by object (claimed-write.ts): its changes, then its creates, go
    // one save.lua call each (writeEntity, as save() does), pipelined, at most UPDATES_IN_FLIGHT under way, but
    // those sharing a unique value one after the other, in order (claim-order.ts).
    const oneByOne = claimsUniques(model);
    let createCount = 0;
    for (let i = 0; i < ready.length; i++) createCount += creating[ready[i]];
    const updates: number[] = new Array(ready.length - createCount);
    const creates: number[] = new Array(createCount);
    for (let i = 0, u = 0, c = 0; i < ready.length; i++) {
      const at = ready[i];
      if (creating[at] === 1) creates[c++] = at;
      else updates[u++] = at;
    }
    if (oneByOne) {
      await writeEach(updates);
      await writeEach(creates);
      return;
    }
    const updateErrors = await updateMany(model, atPositions(entities, updates), atPositions(states, updates), chunkSize);
    for (let i = 0; i < updates.length; i++) record(updates[i], updateErrors[i]);
    const createErrors = await createMany(model, atPositions(entities, creates), chunkSize);
    for (let i = 0; i < creates.length; i++) record(creates[i], createErrors[i]);
  });

  function record(at: number, error: unknown): void {
    if (error === undefined) written[at] = 1;
    else fail(indexes[at], entities[at], error);
  }

  async function writeOne(at: number): Promise<void> {
    try {
      await writeEntity(model, entities[at], states[at]);
      written[at] = 1;
    } catch (error) {
      fail(indexes[at], entities[at], error);
    }
  }

  async function writeEach(positions: readonly number[]): Promise<void> {
    const entangled = await entangledItems(model, activeConnection(), entities, states, positions);
    const free = positions.filter((_, i) => !entangled[i]);
    const tied = positions.filter((_, i) => entangled[i]);
    await Promise.all([
      eachInFlight(free.length, UPDATES_IN_FLIGHT, (i) => writeOne(free[i])),
      (async () => {
        for (const at of tied) await writeOne(at);
      })(),
    ]);
  }

  // With waitReplicas: the writes stand; an item whose node fell short is reported written but failed.
  let shortfalls: Map<string, ReplicationError> | undefined;
  if (replicas) {
    const operations = new Map<string, string>();
    for (const at of ready) if (written[at]) operations.set(states[at].id!, creating[at] ? 'create' : 'save');
    shortfalls = await bulkReplicaShortfalls(model, operations, replicas);
  }

  const saved: Array<Persisted<T>> = new Array(ready.length);
  let savedCount = 0;
  const hooksAfter = AFTER.some((kind) => model.hookMethods(kind).length > 0);
  for (let i = 0; i < ready.length; i++) {
    const at = ready[i];
    if (!written[at]) continue;
    const entity = entities[at];
    if (hooksAfter) {
      try {
        await runHooks(model, entity, creating[at] ? 'afterCreate' : 'afterUpdate');
        await runHooks(model, entity, 'afterSave');
      } catch (error) {
        fail(indexes[at], entity, error, true);
        continue;
      }
    }
    // as save() throws a replica shortfall after its after-hooks
    const shortfall = shortfalls?.get(states[at].id!);
    if (shortfall) fail(indexes[at], entity, shortfall, true);
    else saved[savedCount++] = entity as Persisted<T>;
  }
  saved.length = savedCount;
  return saved;
}

/**
 * The items at `positions` (increasing, each at most once): the list itself when they are all of it (a bulk
 * load of new objects only, or of changes only), with no copy of a list that may hold millions.
 */
function atPositions<I>(items: readonly I[], positions: readonly number[]): readonly I[] {
  return positions.length === items.length ? items : positions.map((at) => items[at]);
}

const BEFORE: readonly HookKind[] = ['beforeValidate', 'beforeSave', 'beforeCreate', 'beforeUpdate'];
const AFTER: readonly HookKind[] = ['afterCreate', 'afterUpdate', 'afterSave'];

/**
 * Whether any item needs a step before its write: a before-hook, or class-validator rules to run. Most bulk
 * loads have neither, and then no item costs a promise before its write.
 */
function hasBeforeSteps(model: ModelDescriptor, validate: boolean): boolean {
  if (BEFORE.some((kind) => model.hookMethods(kind).length > 0)) return true;
  return validate && hasValidationRules(model);
}

/** What save() runs before its write, in the same order. */
async function before(model: ModelDescriptor, entity: object, creating: boolean, validate: boolean): Promise<void> {
  await runHooks(model, entity, 'beforeValidate');
  if (validate) await validateEntity(model, entity);
  await runHooks(model, entity, 'beforeSave');
  await runHooks(model, entity, creating ? 'beforeCreate' : 'beforeUpdate');
}

/** The given index of each of the first `kept` instances of the batch. */
function firstIndexes<T>({ indexes, entities }: Batch<T>, kept: number): Map<object, number> {
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
