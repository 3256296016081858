import type { AttributeInput, Persisted, SaveOptions } from './entity-types';

/** What `saveMany` accepts per item: an instance of the model (new or loaded), or the attributes of a new one. */
export type SaveManyItem<T> = T | AttributeInput<T>;

/** The options of `Model.saveMany`: `save()`'s, and `chunkSize` (docs/bulk-operations.md). */
export interface SaveManyOptions extends Omit<SaveOptions, 'ttl'> {
  /**
   * New objects are sent to Redis this many per script call or transaction (default 250, 1 to 10,000). Larger
   * chunks mean fewer calls but a longer time during which Redis runs one chunk and serves nobody else.
   */
  chunkSize?: number;
}

/** One item that was not saved, or whose after-hook failed. */
export interface SaveManyFailure<T> {
  /** Its position in the array given to saveMany. */
  readonly index: number;
  /** The instance (the one given, or the one built from the given attributes); absent when none could be built. */
  readonly entity: T | undefined;
  /**
   * ValidationError, UniqueConstraintError, StaleObjectError, RelationError, NotFoundError, CrossSlotError,
   * ArgumentError, WrongTypeError (its chunk refused: a key it would write holds another Redis type),
   * RedisRecordError (a new item's id cannot be drawn: the sequence holds no integer, or would pass 2^53 - 1),
   * Redis's own error reply when Redis refused its chunk of new objects before writing it, ReplicationError, or
   * what a hook threw.
   */
  readonly error: Error;
  /**
   * False: nothing of this item was written. True: the object is stored, but an AfterCreate/AfterUpdate/AfterSave
   * hook threw afterwards, or, with `waitReplicas`, too few replicas acknowledged it (ReplicationError), as save()
   * would reject after writing.
   */
  readonly written: boolean;
}

/** What `Model.saveMany` resolves to: the saved instances in the order given, and each failed item with its error. */
export interface SaveManyResult<T> {
  /** True when every item was saved and every hook succeeded. */
  readonly ok: boolean;
  /** The saved instances, in the order they were given (each with its id set). */
  readonly saved: Array<Persisted<T>>;
  /** The items that failed, in the order they were given. */
  readonly failed: Array<SaveManyFailure<T>>;
}

/** One id that was not removed, or whose AfterRemove hook failed. */
export interface RemoveManyFailure {
  /** The id as given, converted to a string. */
  readonly id: string;
  /** The position of its first occurrence in the array given to removeMany. */
  readonly index: number;
  /**
   * InvalidIdError, RelationError (onDelete 'restrict'), WrongTypeError (its chunk refused: a key it would write
   * holds another Redis type; with remove hooks, its own object key holding another type), ReplicationError, or
   * what a hook threw.
   */
  readonly error: Error;
  /**
   * True when the object was removed and only what follows failed: an AfterRemove hook, or, with the model's
   * `waitReplicas`, too few replicas acknowledging (ReplicationError), as remove() would reject after removing.
   */
  readonly removed: boolean;
}

/** The options of `Model.removeBy` (docs/bulk-operations.md#removing-by-query-removeby). */
export interface RemoveByOptions {
  /**
   * `true` lets an empty where (`{}`) remove every object of the model (in the tenant scope it is called on);
   * without it an empty where is an ArgumentError, so that a where that came out empty by mistake removes nothing.
   */
  all?: boolean;
  /** Ids found and removed per batch (default 500, 1 to 10,000): what one round trip of the query reads. */
  batchSize?: number;
}

/** What `Model.removeMany` resolves to: the ids removed, those with no object, and each failed id with its error. */
export interface RemoveManyResult {
  /** True when nothing failed (missing ids are not failures: removing what is gone is not an error). */
  readonly ok: boolean;
  /** The ids removed, in the order given. */
  readonly removed: string[];
  /** The ids of objects that did not exist (or had expired), in the order given. */
  readonly missing: string[];
  /** The ids not removed, or whose AfterRemove hook or replica wait failed, each with its error, in the order given. */
  readonly failed: RemoveManyFailure[];
}

/** The options of `Model.findMany`: `chunkSize`, the ids read per transaction (docs/bulk-operations.md#reading-many-findmany). */
export interface FindManyOptions {
  /**
   * Ids read per transaction (1 to 10,000). Without it, every id is read in one transaction, at one instant;
   * with it, each chunk is read at one instant of its own, and Redis serves other clients between chunks.
   */
  chunkSize?: number;
}

/** The options of `Model.removeMany`: `chunkSize`, the ids removed per script call or transaction (default 500). */
export interface RemoveManyOptions {
  /** Ids removed per round trip (default 500, 1 to 10,000). */
  chunkSize?: number;
}
