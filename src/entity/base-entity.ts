import { attributeFailure } from '../errors/attribute-failure';
import { describeValue } from '../util/describe-value';
import { ArgumentError, NotFoundError, ValidationError } from '../errors/errors';
import { normalizeId } from '../keys/id-format';
import { activeStore } from './active-store';
import { descriptorOf } from '../model/model-registry';
import { AttributeInput, CounterName, EntityClass, entityInstance, Persisted, SaveOptions } from '../types/entity-types';
import { requireId, serialized, StatefulEntity, stateOf } from './entity-state';
import { hasSaveHooks, runHooks } from './run-hooks';
import { hasValidationRules, validateEntity } from './validate-entity';
import { writeEntity } from './write-entity';
import { removeEntity } from './remove-entity';
import { setUpInstance } from '../model/instance-setup';
import { dropScope } from './drop-scope';
import { scopedClass } from '../model/tenant-scope';
import { applyStored, buildStored } from './materialize';
import { countWhere, findBy, findIds, iterate } from './entity-queries';
import { expireObject, persistObject, sweepModel, ttlOf } from './expiry';
import { incrementCounter } from './counters';
import { operationReplicaPolicy } from '../model/replica-policy';
import { replicaShortfall } from '../redis/wait-replicas';
import { LockOptions, withObjectLock } from './locking';
import { knownOptions } from '../errors/options-argument';
import { LOCK_OPTIONS, SAVE_OPTIONS } from './option-names';
import { refuseFrozen } from './writable-instance';
import { validateOption } from './validate-option';
import { isAttributeObject } from '../util/attribute-object';
import { queryOptions } from '../query/query-options';
import type { FindIdsOptions, FindOneOptions, FindOptions, IterateOptions, Where } from '../types/where-types';
import { afterSchema, schemaPending } from '../schema/first-use';
import { asRejection } from '../errors/as-rejection';
import { firstGiven, refuseExtraArguments } from '../errors/no-arguments';
import { failingIterator } from '../util/failing-iterator';
import { checkEntityModel, reindexEntityModel, repairEntityModel, schemaStatusOf } from './entity-integrity';
import type { CheckResult, IntegrityOptions, RepairResult } from '../integrity/violations';
import type { ReindexResult } from '../integrity/reindex-model';
import type { SchemaStatus } from '../schema/schema-status';
import type {
  FindManyOptions,
  RemoveManyOptions,
  RemoveManyResult,
  SaveManyItem,
  SaveManyOptions,
  SaveManyResult,
} from '../types/bulk-types';
import type { SaveManyItems } from '../types/save-many-items';
import { saveMany } from './bulk/save-many';
import { removeMany } from './bulk/remove-many';
import { findMany } from './bulk/find-many';
import { inspect, InspectOptionsStylized } from 'util';
import { entityJSON, inspectEntity } from './readable-entity';

/**
 * The `this` of the statics that take no type parameter: a class that can be instantiated, so that they compile
 * on a model class and not on the abstract BaseEntity itself, which has no model.
 */
export type InstantiableModel = new (...args: never[]) => BaseEntity;

/** The ActiveRecord facade: model classes extend it and get persistence as static and instance methods. */
export abstract class BaseEntity extends StatefulEntity {
  /** Type-only: what keeps an entity from passing as an AttributeInput (see entityInstance). */
  declare private readonly [entityInstance]: true;

  /** The id: set once saved ('1', '2', ... or a uuid), undefined before. */
  get id(): string | undefined {
    return stateOf(this).id;
  }

  /**
   * Whether the instance holds a stored copy: true once saved or loaded, false when built and not saved yet or
   * after its remove(). Known from the instance alone: Redis is not read.
   */
  isPersisted(): boolean {
    return stateOf(this).stored !== undefined;
  }

  /**
   * Validates and writes the entity: a create (one script: id, hash and `all` entry together) or an update
   * of only the attributes that changed since it was loaded or saved. Nothing is written when validation
   * or a before-hook fails.
   */
  save(given?: SaveOptions): Promise<Persisted<this>> {
    return serialized(this, async () => {
      const options = knownOptions('save', given, SAVE_OPTIONS);
      const validate = validateOption('save', options.validate);
      const model = descriptorOf(this.constructor);
      if (model.version) refuseFrozen(model, this, 'save');
      const replicas = operationReplicaPolicy(model.name, options, model.replicas); // bad options: before any write
      const state = stateOf(this);
      const creating = state.stored === undefined;
      if (!replicas && !hasSaveHooks(model) && (!validate || !hasValidationRules(model))) {
        // nothing to run around the write (no hook, no rule, no replica to wait for): the write alone
        await afterSchema(model, () => writeEntity(model, this, state));
        return this as Persisted<this>;
      }
      await runHooks(model, this, 'beforeValidate');
      if (validate) await validateEntity(model, this);
      await runHooks(model, this, 'beforeSave');
      await runHooks(model, this, creating ? 'beforeCreate' : 'beforeUpdate');
      await afterSchema(model, () => writeEntity(model, this, state));
      // The write stands whatever the replicas say: the after-hooks run, then a shortfall is thrown.
      const shortfall = await replicaShortfall(model, state.id!, creating ? 'create' : 'save', replicas);
      await runHooks(model, this, creating ? 'afterCreate' : 'afterUpdate');
      await runHooks(model, this, 'afterSave');
      if (shortfall) throw shortfall;
      return this as Persisted<this>;
    });
  }

  /** Reads the stored attributes again, dropping unsaved changes. NotFoundError if the object is gone. */
  reload(): Promise<this> {
    return serialized(this, async () => {
      const model = descriptorOf(this.constructor);
      const id = requireId(model, this);
      refuseFrozen(model, this, 'reload');
      const fields = await afterSchema(model, () => activeStore(model).loadOne(id));
      if (!fields) throw new NotFoundError(model.name, id);
      await applyStored(model, this, id, fields);
      return this;
    });
  }

  /**
   * Deletes the object with all its entries, atomically. An object someone else removed already is not an
   * error; an instance that was never saved, or was removed through this instance, throws.
   */
  remove(): Promise<void> {
    return serialized(this, () => removeEntity(this));
  }

  /**
   * Adds `amount` (default 1, may be negative or fractional) to a `@Counter` attribute in one atomic command;
   * resolves to the new value. Concurrent increments never lose one.
   */
  increment(property: CounterName<this>, amount = 1): Promise<number> {
    return serialized(this, async () => {
      const model = descriptorOf(this.constructor);
      refuseFrozen(model, this, 'increment');
      return afterSchema(model, async () => {
        const value = await incrementCounter(model, this, stateOf(this), property, amount);
        const shortfall = await replicaShortfall(model, stateOf(this).id!, 'increment', model.replicas);
        if (shortfall) throw shortfall;
        return value;
      });
    });
  }

  /**
   * Lets the object live `seconds` more (then it is invisible at once and swept with all its entries). Like
   * save() and remove(), it waits for the instance's operations under way: `entity.save(); entity.expire(5)`
   * expires the object the save creates.
   */
  expire(seconds: number): Promise<void> {
    return serialized(this, async () => {
      const model = descriptorOf(this.constructor);
      const id = requireId(model, this);
      await afterSchema(model, () => expireObject(model, id, seconds));
    });
  }

  /** Removes the object's time to live (after the instance's operations under way, as expire()). */
  persist(): Promise<void> {
    return serialized(this, async () => {
      const model = descriptorOf(this.constructor);
      const id = requireId(model, this);
      await afterSchema(model, () => persistObject(model, id));
    });
  }

  /**
   * Seconds the object has left, or null when it does not expire (after the instance's operations under way,
   * as expire()). NotFoundError when it is gone.
   */
  ttl(): Promise<number | null> {
    return serialized(this, async () => {
      const model = descriptorOf(this.constructor);
      const id = requireId(model, this);
      return afterSchema(model, () => ttlOf(model, id));
    });
  }

  /** `{ id, ...attributes }`; absent attributes are left out. */
  toJSON(): Record<string, unknown> {
    return entityJSON(descriptorOf(this.constructor), this, this.id);
  }

  /** What util.inspect and console.log show: `Post (persisted) { id: '1', title: 'Hello' }` (readable-entity.ts). */
  [inspect.custom](depth: number, options: InspectOptionsStylized, show: typeof inspect): string {
    return inspectEntity(this, depth, options, show);
  }

  /**
   * A new, unsaved instance with the given attributes. Unknown attribute names throw ValidationError; anything
   * but an object of attributes (a primitive, an array, an entity, a Map, a Set, a Date) ArgumentError.
   */
  static build<T extends BaseEntity>(this: EntityClass<T>, attributes: AttributeInput<T> = {}): T {
    return buildEntity(this, attributes);
  }

  /** Builds, validates and saves in one step. */
  static async create<T extends BaseEntity>(
    this: EntityClass<T>,
    attributes: AttributeInput<T> = {},
    options: SaveOptions = {},
  ): Promise<Persisted<T>> {
    return buildEntity(this, attributes).save(options);
  }

  /**
   * Saves many entities (instances, or attribute objects of new ones) as save() saves each, with the writes
   * pipelined: new objects go to Redis in chunks, one script call per chunk. Each object is still written
   * atomically; one item's failure does not stop the others. An attribute object holding a key that is not an
   * attribute (an id, a method's or a relation's name) fails to compile, as it does for build() and create()
   * (SaveManyItems). See docs/bulk-operations.md.
   */
  static saveMany<T extends BaseEntity, Items extends ReadonlyArray<SaveManyItem<NoInfer<T>>>>(
    this: EntityClass<T>,
    entities: SaveManyItems<NoInfer<T>, Items>,
    options: SaveManyOptions = {},
  ): Promise<SaveManyResult<T>> {
    return saveMany<T>(this, entities, options);
  }

  /**
   * Removes the objects with these ids as remove() removes each (atomically, with what depends on them), the
   * writes pipelined; says which were removed, which were missing and which failed. See docs/bulk-operations.md.
   */
  static removeMany<T extends BaseEntity>(
    this: EntityClass<T>,
    ids: ReadonlyArray<string | number>,
    options: RemoveManyOptions = {},
  ): Promise<RemoveManyResult> {
    return removeMany(this, ids, options);
  }

  /** The object with this id, or null. One round trip. It takes the id alone (`include` is findBy's). */
  static find<T extends BaseEntity>(this: EntityClass<T>, id: string | number): Promise<Persisted<T> | null> {
    if (arguments.length > 1) return extraArgumentsOf(this, 'find', arguments, () => findOne(this, id));
    return findOne(this, id);
  }

  /** The object with this id; NotFoundError when there is none. It takes the id alone, as find(). */
  static findOrFail<T extends BaseEntity>(this: EntityClass<T>, id: string | number): Promise<Persisted<T>> {
    if (arguments.length > 1) return extraArgumentsOf(this, 'findOrFail', arguments, () => findOrFailOne(this, id));
    return findOrFailOne(this, id);
  }

  /**
   * The objects with these ids, in the same order, null where missing: one round trip and one instant for any
   * number, or with `chunkSize`, one transaction per chunk of ids (see docs/bulk-operations.md).
   */
  static findMany<T extends BaseEntity>(
    this: EntityClass<T>,
    ids: ReadonlyArray<string | number>,
    options: FindManyOptions = {},
  ): Promise<Array<Persisted<T> | null>> {
    return findMany(this, ids, options);
  }

  /** Whether an object with this id is stored (and has not expired). It takes the id alone, as find(). */
  static async exists<T extends BaseEntity>(this: EntityClass<T>, id: string | number): Promise<boolean> {
    const model = descriptorOf(this);
    if (arguments.length > 1) refuseExtraArguments(`${model.name}.exists`, arguments, 1, 'an id');
    const normalized = normalizeId(model.name, id);
    return afterSchema(model, () => activeStore(model).exists(normalized));
  }

  /** Deletes every expired object with its index and unique entries; resolves to how many. */
  static sweep<T extends BaseEntity>(this: EntityClass<T>): Promise<number> {
    return asRejection(() => {
      const model = descriptorOf(this);
      return afterSchema(model, () => sweepModel(model));
    });
  }

  /**
   * Loads the object and runs `work` on it while holding its lock (mutual exclusion among withLock callers);
   * the lock is released afterwards, or expires after ttlMs if this process dies. NotFoundError when the object
   * does not exist, LockTimeoutError when the lock cannot be had within waitMs. `work` may be synchronous;
   * withLock resolves to what it returns, awaited.
   */
  static async withLock<T extends BaseEntity, R>(
    this: EntityClass<T>,
    id: string | number,
    work: (entity: Persisted<T>) => R | PromiseLike<R>,
    options?: LockOptions,
  ): Promise<Awaited<R>> {
    const model = descriptorOf(this);
    const normalized = normalizeId(model.name, id);
    const given = knownOptions('withLock', options, LOCK_OPTIONS);
    // before the lock is taken: a work that cannot be called would otherwise fail while holding it
    if (typeof work !== 'function') throw new ArgumentError(`${model.name}.withLock: work must be a function, got ${describeValue(work)}`);
    const locked = async (): Promise<Awaited<R>> => await work(await findOrFailOne(this, normalized));
    return afterSchema(model, () => withObjectLock(model, normalized, locked, given));
  }

  /**
   * The model within a tenant: the same API, with every key (objects, sequence, indexes, uniques) under the
   * tenant's namespace, so tenants never mix. Relations of a tenant's objects stay within the tenant.
   */
  static scope<C extends InstantiableModel>(this: C, tenant: string): C {
    return scopedClass(this, tenant);
  }

  /** Deletes every key of this model in the tenant scope it is called on (SCAN in batches, never KEYS). */
  static drop<T extends BaseEntity>(this: EntityClass<T>): Promise<number> {
    return asRejection(() => {
      const model = descriptorOf(this);
      return afterSchema(model, () => dropScope(model));
    });
  }

  /**
   * The number of objects (ZCARD of `all`), or of those matching `where` (counted inside Redis). It takes no
   * options: a second argument (`{ limit }`, say, from a caller without types) is an ArgumentError rather
   * than a count of something else than what was asked.
   */
  static count<T extends BaseEntity>(this: EntityClass<T>, where?: Where<T>): Promise<number> {
    // Not async: a bare count is then the ZCARD's promise itself, without the ticks of async layers. Errors
    // thrown here (bad arguments, no connection) still come as rejections.
    const extra = firstGiven(arguments, 1);
    return asRejection(() => {
      const model = descriptorOf(this);
      if (extra !== undefined) {
        throw new ArgumentError(`${model.name}.count takes a where alone, it has no options; got ${describeValue(extra)}`);
      }
      return afterSchema(model, () => (where === undefined ? activeStore(model).count() : countWhere(this, where)));
    });
  }

  /**
   * The objects matching `where` (every object without one), ordered by id or by `orderBy`, paged by
   * `offset` and `limit`: one script call that intersects indexes, orders, pages and reads the attributes.
   */
  static findBy<T extends BaseEntity>(this: EntityClass<T>, where?: Where<T>, options?: FindOptions<T>): Promise<Array<Persisted<T>>> {
    return asRejection(() => afterSchema(descriptorOf(this), () => findBy(this, where, options)));
  }

  /** The first match (by id, or by `orderBy`), or null. */
  static async findOneBy<T extends BaseEntity>(
    this: EntityClass<T>,
    where: Where<T>,
    options?: FindOneOptions<T>,
  ): Promise<Persisted<T> | null> {
    const [first] = await afterSchema(descriptorOf(this), () => findBy(this, where, { ...queryOptions('findOneBy', options), limit: 1 }));
    return first ?? null;
  }

  /** Like findBy, but only the ids: nothing but the page's ids leaves Redis. */
  static findIds<T extends BaseEntity>(this: EntityClass<T>, where?: Where<T>, options?: FindIdsOptions<T>): Promise<string[]> {
    return asRejection(() => afterSchema(descriptorOf(this), () => findIds(this, where, options)));
  }

  /**
   * Every violation of the invariants in this model (in the tenant scope it is called on), streamed with
   * SCAN/ZSCAN/SSCAN/HSCAN in batches of `batchSize`; reads only. See docs/operations.md.
   */
  static check(this: InstantiableModel, options?: IntegrityOptions): Promise<CheckResult> {
    return asRejection(() => checkEntityModel(descriptorOf(this), options));
  }

  /** Finds the violations check() reports and fixes each in one atomic step; says what it did. */
  static repair(this: InstantiableModel, options?: IntegrityOptions): Promise<RepairResult> {
    return asRejection(() => repairEntityModel(descriptorOf(this), options));
  }

  /**
   * Builds the entries of indexes added since the stored definition, deletes the keys of dropped ones, in every
   * tenant, then stores the current definition. Memos are rewritten where they can be out of step: every
   * object's in a model with a ttl or a cap (on every run), and when indexes change, those of objects that keep
   * one (docs/operations.md).
   */
  static reindex(this: InstantiableModel, options?: IntegrityOptions): Promise<ReindexResult> {
    return asRejection(() => reindexEntityModel(descriptorOf(this), options));
  }

  /** How the definition stored in Redis compares with this model's: indexes added and dropped. */
  static schemaStatus(this: InstantiableModel): Promise<SchemaStatus> {
    return asRejection(() => schemaStatusOf(descriptorOf(this)));
  }

  /**
   * Every match, in id order, read `batchSize` objects per round trip: memory stays bounded. Bad input (a
   * where, options, a class that is no model) fails the first next(), never the call.
   */
  static iterate<T extends BaseEntity>(this: EntityClass<T>, where?: Where<T>, options?: IterateOptions): AsyncGenerator<Persisted<T>> {
    let pending: Promise<void> | undefined;
    try {
      pending = schemaPending(descriptorOf(this));
    } catch (error) {
      return failingIterator(error);
    }
    if (!pending) return iterate(this, where, options);
    return (async function* (ctor) {
      await pending;
      yield* iterate(ctor, where, options);
    })(this);
  }
}

/**
 * A call of `method` given more than the id (from a caller without types): the ArgumentError naming what came
 * after it, as a rejection, or else `run`'s promise (an argument that is undefined is none).
 */
function extraArgumentsOf<R>(ctor: Function, method: string, given: ArrayLike<unknown>, run: () => Promise<R>): Promise<R> {
  return asRejection(() => {
    refuseExtraArguments(`${descriptorOf(ctor).name}.${method}`, given, 1, 'an id');
    return run();
  });
}

function buildEntity<T extends BaseEntity>(ctor: EntityClass<T>, input: AttributeInput<T>): T {
  const model = descriptorOf(ctor);
  if (!isAttributeObject(input)) {
    // a Map, a Set or a Date among them: their entries are not properties, and would be no attributes at all
    throw new ArgumentError(`${model.name}: build and create take an object of attributes, got ${describeValue(input)}`);
  }
  if (input instanceof StatefulEntity) {
    // its own properties are another object's state (of this model or another one), not attributes given
    throw new ArgumentError(`${model.name}: build and create take an object of attributes, not an entity; got ${describeValue(input)}`);
  }
  const entity = new ctor();
  setUpInstance(model, entity);
  const attributes = input as Record<string, unknown>;
  // for-in over own keys, as Object.keys lists them, without the array (builds of a bulk load are hot)
  let unknown: string[] | undefined;
  for (const key in attributes) {
    if (Object.hasOwn(attributes, key) && !model.attribute(key) && key !== model.dynamicProperty) (unknown ??= []).push(key);
  }
  if (unknown) {
    throw new ValidationError(
      model.name,
      unknown.map((key) =>
        key === 'id'
          ? // toJSON() output given back, say: the id is not an attribute
            attributeFailure(
              entity,
              key,
              attributes[key],
              'unknownAttribute',
              `${model.name}: id is not an attribute; it is given when the object is first saved`,
            )
          : attributeFailure(entity, key, attributes[key], 'unknownAttribute', `${model.name} has no attribute ${key}`),
      ),
    );
  }
  for (const key in attributes) {
    if (!Object.hasOwn(attributes, key)) continue;
    const value = attributes[key];
    (entity as Record<string, unknown>)[key] = value === null ? undefined : value;
  }
  return entity;
}

async function findOrFailOne<T extends BaseEntity>(ctor: EntityClass<T>, id: string | number): Promise<Persisted<T>> {
  const found = await findOne(ctor, id);
  if (!found) throw new NotFoundError(descriptorOf(ctor).name, String(id));
  return found;
}

async function findOne<T extends BaseEntity>(ctor: EntityClass<T>, id: string | number): Promise<Persisted<T> | null> {
  const model = descriptorOf(ctor);
  const normalized = normalizeId(model.name, id);
  const fields = await afterSchema(model, () => activeStore(model).loadOne(normalized));
  if (!fields) return null;
  const entity = buildStored(ctor, model, normalized, fields);
  const hooks = runHooks(model, entity, 'afterLoad');
  if (hooks) await hooks;
  return entity;
}
