import { descriptorOf } from '../model/model-registry';
import { AttributeInput, CounterName, EntityClass, entityInstance, Persisted, SaveOptions, CreateOptions } from '../types/entity-types';
import { isRemovedInstance, serialized, stateOf } from './entity-state';
import { ModelWrites } from './model-writes';
import { createEntity } from './create-once';
import { removeEntity } from './remove-entity';
import { saveEntity } from './save-entity';
import { buildEntity } from './build-entity';
import { dropScope } from './drop-scope';
import { scopedClass } from '../model/tenant-scope';
import { countEntities, findBy, findIds, findOneBy, iterateEntities, rankEntity } from './entity-queries';
import { sweepModel } from './expiry';
import { LockOptions } from './locking';
import { withEntityLock } from './lock-entity';
import { entityTtl, expireEntity, incrementEntity, persistEntity, reloadEntity } from './instance-operations';
import { byIdAlone, existsById, findOne, findOrFailOne } from './find-by-id';
import type { FindIdsOptions, FindOneOptions, FindOptions, IterateOptions, RankOptions, Where } from '../types/where-types';
import { onModel } from './model-call';
import { asRejection } from '../errors/as-rejection';
import { checkEntityModel, reindexEntityModel, repairEntityModel, schemaStatusOf } from './entity-integrity';
import type { CheckResult, IntegrityOptions, RepairResult } from '../integrity/violations';
import type { ReindexResult } from '../integrity/reindex-model';
import type { SchemaStatus } from '../schema/schema-status';
import type { FindManyOptions, RemoveByOptions, RemoveManyOptions, RemoveManyResult, SaveManyItem } from '../types/bulk-types';
import type { SaveManyOptions, SaveManyResult } from '../types/bulk-types';
import type { SaveManyItems } from '../types/save-many-items';
import { saveMany } from './bulk/save-many';
import { removeMany } from './bulk/remove-many';
import { removeBy } from './bulk/remove-by';
import { findMany } from './bulk/find-many';
import { inspect, InspectOptionsStylized } from 'util';
import { entityJSON, inspectEntity } from './readable-entity';

/**
 * The `this` of the statics that take no type parameter: a class that can be instantiated, so that they compile
 * on a model class and not on the abstract BaseEntity itself, which has no model.
 */
export type InstantiableModel = new (...args: never[]) => BaseEntity;

/** The ActiveRecord facade: model classes extend it and get persistence as static and instance methods. */
export abstract class BaseEntity extends ModelWrites {
  /** Type-only: what keeps an entity from passing as an AttributeInput (see entityInstance). */
  declare private readonly [entityInstance]: true;

  /** The id: set once saved ('1', '2', ... or a uuid), undefined before; a removed instance keeps it. */
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
   * Whether the object was removed through this instance (remove(), or removeMany() and removeBy() of a model
   * with remove hooks, which load instances). A removed instance keeps its id; saving it is a RemovedEntityError.
   */
  isRemoved(): boolean {
    return isRemovedInstance(this);
  }

  /**
   * Validates and writes the entity: a create (one script: id, hash and `all` entry together) or an update of
   * only the attributes that changed since it was loaded or saved. Nothing is written when validation or a
   * before-hook fails, nor for a removed instance (RemovedEntityError).
   */
  save(given?: SaveOptions): Promise<Persisted<this>> {
    return saveEntity(this, given);
  }

  /** Reads the stored attributes again, dropping unsaved changes. NotFoundError if the object is gone. */
  reload(): Promise<this> {
    return reloadEntity(this);
  }

  /**
   * Deletes the object with all its entries, atomically. The instance keeps its id, and isRemoved() is then
   * true. An object someone else removed already is not an error; an instance that was never saved, or was
   * removed through this instance, throws.
   */
  remove(): Promise<void> {
    return serialized(this, () => removeEntity(this));
  }

  /** Adds `amount` (default 1, negative or fractional) to a `@Counter` in one atomic command; resolves to the new value. */
  increment(property: CounterName<this>, amount = 1): Promise<number> {
    return incrementEntity(this, property, amount);
  }

  /**
   * Lets the object live `seconds` more (then it is invisible at once and swept with all its entries). Like
   * save() and remove(), it waits for the instance's operations under way: `entity.save(); entity.expire(5)`
   * expires the object the save creates.
   */
  expire(seconds: number): Promise<void> {
    return expireEntity(this, seconds);
  }

  /** Removes the object's time to live (after the instance's operations under way, as expire()). */
  persist(): Promise<void> {
    return persistEntity(this);
  }

  /** Seconds the object has left, or null when it does not expire (after the operations under way); NotFoundError if gone. */
  ttl(): Promise<number | null> {
    return entityTtl(this);
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

  /** Builds, validates and saves in one step; with `idempotencyKey` once per key (docs/transactions-and-retries.md). */
  static async create<T extends BaseEntity>(
    this: EntityClass<T>,
    attributes: AttributeInput<T> = {},
    options: CreateOptions = {},
  ): Promise<Persisted<T>> {
    return createEntity(this, attributes, options);
  }

  /**
   * Saves many entities (instances, or attribute objects of new ones) as save() saves each, the writes sent in
   * chunks; each object written atomically, one item's failure not stopping the others. An attribute object
   * holding a key that is not an attribute fails to compile, as for create(). See docs/bulk-operations.md.
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

  /**
   * Removes every object matching `where`, each as remove() removes it (atomically, with its entries and
   * onDelete rules), in batches of `batchSize` ids; resolves to the number removed. An empty where is an
   * ArgumentError: `removeBy({}, { all: true })` removes every object. See docs/bulk-operations.md.
   */
  static removeBy<T extends BaseEntity>(this: EntityClass<T>, where: Where<T>, options?: RemoveByOptions): Promise<number> {
    return asRejection(() => removeBy(this, where, options));
  }

  /** The object with this id, or null. One round trip. It takes the id alone (`include` is findBy's). */
  static find<T extends BaseEntity>(this: EntityClass<T>, id: string | number): Promise<Persisted<T> | null> {
    return byIdAlone(this, 'find', arguments, () => findOne(this, id));
  }

  /** The object with this id; NotFoundError when there is none. It takes the id alone, as find(). */
  static findOrFail<T extends BaseEntity>(this: EntityClass<T>, id: string | number): Promise<Persisted<T>> {
    return byIdAlone(this, 'findOrFail', arguments, () => findOrFailOne(this, id));
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
  static exists<T extends BaseEntity>(this: EntityClass<T>, id: string | number): Promise<boolean> {
    return existsById(this, id, arguments);
  }

  /** Deletes every expired object with its index and unique entries; resolves to how many. */
  static sweep<T extends BaseEntity>(this: EntityClass<T>): Promise<number> {
    return onModel(this, (model) => sweepModel(model));
  }

  /**
   * Loads the object and runs `work` on it while holding its lock (mutual exclusion among withLock callers);
   * the lock is released afterwards, or expires after ttlMs if this process dies. NotFoundError when the object
   * does not exist, LockTimeoutError when the lock cannot be had within waitMs. `work` may be synchronous;
   * withLock resolves to what it returns, awaited.
   */
  static withLock<T extends BaseEntity, R>(
    this: EntityClass<T>,
    id: string | number,
    work: (entity: Persisted<T>) => R | PromiseLike<R>,
    options?: LockOptions,
  ): Promise<Awaited<R>> {
    return withEntityLock(this, id, work, options);
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
    return onModel(this, (model) => dropScope(model));
  }

  /**
   * The number of objects (ZCARD of `all`), or of those matching `where` (counted inside Redis). It takes no
   * options: a second argument (`{ limit }`, say, from a caller without types) is an ArgumentError rather
   * than a count of something else than what was asked.
   */
  static count<T extends BaseEntity>(this: EntityClass<T>, where?: Where<T>): Promise<number> {
    return countEntities(this, where, arguments);
  }

  /**
   * The objects matching `where` (every object without one), ordered by id or by `orderBy`, paged by
   * `offset` and `limit`: one script call that intersects indexes, orders, pages and reads the attributes.
   */
  static findBy<T extends BaseEntity>(this: EntityClass<T>, where?: Where<T>, options?: FindOptions<T>): Promise<Array<Persisted<T>>> {
    return onModel(this, () => findBy(this, where, options));
  }

  /** The first match (by id, or by `orderBy`), or null. */
  static findOneBy<T extends BaseEntity>(this: EntityClass<T>, where: Where<T>, options?: FindOneOptions<T>): Promise<Persisted<T> | null> {
    return findOneBy(this, where, options);
  }

  /** The 0-based position of object `id` in `findBy({}, { orderBy: { [by]: order } })` (among its `per` scope), or null. */
  static rank<T extends BaseEntity>(this: EntityClass<T>, id: string | number, options: RankOptions<T>): Promise<number | null> {
    return onModel(this, (model) => rankEntity(model, id, options));
  }

  /** Like findBy, but only the ids: nothing but the page's ids leaves Redis. */
  static findIds<T extends BaseEntity>(this: EntityClass<T>, where?: Where<T>, options?: FindIdsOptions<T>): Promise<string[]> {
    return onModel(this, () => findIds(this, where, options));
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
   * tenant, then stores the current definition, rewriting memos where they can be out of step (docs/operations.md).
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
    return iterateEntities(this, where, options);
  }
}
