import type { AttributeFailure } from './attribute-failure';
import { describeValue } from '../util/describe-value';

/** Base class of every error redis-record throws on purpose. */
export class RedisRecordError extends Error {
  /** `cause`: the error this one stands for (a client's own error, say), as Error's option. */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A model definition that cannot work: thrown when the class is defined, naming class and property. */
export class SchemaError extends RedisRecordError {}

/** An argument that cannot work: a bad prefix or tenant name, an amount or a time out of range, bad options. */
export class ArgumentError extends RedisRecordError {}

/**
 * No connection to use: `connect()` was not called, or `disconnect()` was; or Redis could not be reached, or the
 * command could not be sent (`cause` holds the client's own error). Nothing was written.
 */
export class ConnectionError extends RedisRecordError {}

/**
 * The entity (or the input given to `create`/`build`) is not valid; nothing was written.
 * `errors` is class-validator's array (codec failures such as NaN appear there too).
 */
export class ValidationError extends RedisRecordError {
  /**
   * class-validator's errors (`property`, `value`, `constraints`); values an attribute type cannot store, and
   * names that are not attributes (`unknownAttribute`), are reported in the same shape.
   */
  readonly errors: AttributeFailure[];
  constructor(model: string, errors: AttributeFailure[]) {
    super(`${model} is not valid: ${describe(errors)}`);
    this.errors = errors;
  }
}

/** The object does not exist (any more). */
export class NotFoundError extends RedisRecordError {
  constructor(
    /** The model's name (`@Model({ name })`, by default the class name). */
    readonly model: string,
    /** The id that names no object (any more). */
    readonly id: string,
  ) {
    super(`${model} ${JSON.stringify(id)} not found`);
  }
}

/**
 * A save of an instance that was removed (through `remove()`, `removeMany()` or `removeBy()`). The instance keeps
 * its id, as ActiveRecord's do, but stands for no object: build a new instance to store the attributes again.
 * Nothing was written.
 */
export class RemovedEntityError extends RedisRecordError {
  constructor(
    /** The model's name (`@Model({ name })`, by default the class name). */
    readonly model: string,
    /** The id the removed object had. */
    readonly id: string,
  ) {
    super(`${model} ${JSON.stringify(id)} was removed through this instance; build a new instance to store it again`);
  }
}

/** An id that is not of the form a model's keys can hold; it could otherwise forge another key. */
export class InvalidIdError extends RedisRecordError {
  constructor(
    /** The model's name (`@Model({ name })`, by default the class name). */
    readonly model: string,
    /** The id as it was given, of whatever type (a malformed string, a negative or fractional number, `null`). */
    readonly id: unknown,
  ) {
    super(`${model}: invalid id ${describeValue(id)}: ids are 1 to 128 characters of A-Z a-z 0-9 _ -, or a non-negative safe integer`);
  }
}

/** A value read from Redis that the attribute's codec cannot decode (written by something else). */
export class DecodeError extends RedisRecordError {
  constructor(
    /** The model's name (`@Model({ name })`, by default the class name). */
    readonly model: string,
    /** The id of the object whose stored value cannot be decoded. */
    readonly id: string,
    /** The attribute (its property name) whose stored value its codec refuses. */
    readonly attribute: string,
    reason: string,
  ) {
    super(`${model} ${JSON.stringify(id)}: attribute ${attribute} cannot be decoded: ${reason}`);
  }
}

/** A unique value is already held by another object; nothing was written. */
export class UniqueConstraintError extends RedisRecordError {
  /** Every attribute of the unique: `[attribute]`, or a composite unique's attributes in declared order. */
  readonly attributes: readonly string[];
  /** The values taken, one per attribute of `attributes`, as the saved instance holds them. */
  readonly values: readonly unknown[];
  constructor(
    /** The model's name (`@Model({ name })`, by default the class name). */
    readonly model: string,
    /** The `@Unique` attribute (its property name) whose value is taken; a composite unique's attributes joined by `+`. */
    readonly attribute: string,
    /** The value that is taken, as the saved instance holds it (not lower-cased for `caseInsensitive`); a composite's values, as `values`. */
    readonly value: unknown,
    /** A composite unique's attributes and values (`attribute` and `value` alone name a single one). */
    composite?: { readonly attributes: readonly string[]; readonly values: readonly unknown[] },
  ) {
    const taken = composite
      ? composite.attributes.map((name, i) => `${name} ${safeRepr(composite.values[i])}`).join(', ')
      : safeRepr(value);
    const what = composite
      ? `${model}.(${composite.attributes.join(', ')}) must be unique together`
      : `${model}.${attribute} must be unique`;
    super(`${what}: ${taken} is taken`);
    this.attributes = composite?.attributes ?? [attribute];
    this.values = composite?.values ?? [value];
  }
}

/** The instance's `@Version` is behind the stored one: someone saved in between. Nothing was written. */
export class StaleObjectError extends RedisRecordError {
  constructor(
    /** The model's name (`@Model({ name })`, by default the class name). */
    readonly model: string,
    /** The id of the object saved by someone else since this instance read it. */
    readonly id: string,
  ) {
    super(`${model} ${JSON.stringify(id)} was changed by someone else since it was loaded; reload and retry`);
  }
}

/** withLock could not take the lock within waitMs. */
export class LockTimeoutError extends RedisRecordError {
  constructor(
    /** The model's name (`@Model({ name })`, by default the class name). */
    readonly model: string,
    /** The id of the object whose lock was not acquired. */
    readonly id: string,
    /** How long withLock waited for the lock, in milliseconds: its `waitMs` option (default 2000). */
    readonly waitMs: number,
  ) {
    super(`${model} ${JSON.stringify(id)}: lock not acquired within ${waitMs} ms`);
  }
}

/**
 * A relation would break: a `@BelongsTo` pointing to a missing object, removing an object others still belong
 * to (onDelete 'restrict'), or a many-to-many membership with a missing object. Nothing was written.
 */
export class RelationError extends RedisRecordError {}

/**
 * Fewer replicas than `waitReplicas` acknowledged a write within `waitTimeoutMs` (docs/cluster.md). The write
 * itself is applied on the master and stays; it may be lost if the master fails before replicating it.
 */
export class ReplicationError extends RedisRecordError {
  constructor(
    /** The model's name (`@Model({ name })`, by default the class name). */
    readonly model: string,
    /** The id of the object written. */
    readonly id: string,
    /** The write that was not acknowledged enough: `'create'`, `'save'`, `'remove'` or `'increment'`. */
    readonly operation: string,
    /** How many replicas had to acknowledge the write: `waitReplicas`. */
    readonly wanted: number,
    /** How many replicas acknowledged it within the timeout: fewer than `wanted`. */
    readonly acknowledged: number,
    /** How long the write waited for them, in milliseconds: `waitTimeoutMs` (default 1000). */
    readonly timeoutMs: number,
  ) {
    super(
      `${model} ${JSON.stringify(id)}: ${operation} acknowledged by ${acknowledged} of ${wanted} replica${wanted === 1 ? '' : 's'} within ${timeoutMs} ms; ` +
        'the write is applied on the master, and may be lost if the master fails before it reaches a replica',
    );
  }
}

/**
 * On a Redis Cluster, an operation needed keys of two hash tags in one script, which Redis refuses: models
 * related to each other (belongs-to, has-many, many-to-many) must share a group, `@Model({ group })`, so that
 * their keys share a slot (docs/cluster.md). Redis refuses before the script writes: nothing was written.
 */
export class CrossSlotError extends RedisRecordError {}

/**
 * A key of the layout (docs/keys.md) holds another Redis type than redis-record keeps there, such as a string
 * written by hand at a model's `all` set: `key` names it, `expected` is the Redis type it should hold (as TYPE
 * names it: string, hash, set, zset) and `found` the one it holds. The operation wrote nothing. `check()` names
 * such keys (`wrongType`) and `repair()` settles those it safely can (docs/operations.md).
 */
export class WrongTypeError extends RedisRecordError {
  constructor(
    /** The full name of the key, prefix included (docs/keys.md). */
    readonly key: string,
    /** The Redis type redis-record keeps at the key, as `TYPE` names it: string, hash, set or zset. */
    readonly expected: string,
    /** The Redis type the key holds instead, as `TYPE` names it (a list, say). */
    readonly found: string,
  ) {
    super(
      `${key} holds a ${found}, not the ${expected} redis-record keeps there; nothing was written (check() names such keys, repair() settles them)`,
    );
  }
}

/**
 * A transaction refused because of one of its objects: a before-hook or validation failed, or Redis refused its
 * write (a unique value taken, a missing parent, a stale version, an object gone, an onDelete 'restrict'). Nothing
 * of the transaction was written. `cause` is the error the object's own save() or remove() would have given.
 */
export class TransactionRefusedError extends RedisRecordError {
  constructor(
    /** The position of the refused operation among the transaction's saves and removes, from 0. */
    readonly index: number,
    /** The instance whose save or remove was refused. */
    readonly entity: object,
    /** The model's name (`@Model({ name })`, by default the class name). */
    readonly model: string,
    /** The object's id; undefined for a new object whose id is drawn at the write. */
    readonly id: string | undefined,
    /** `'save'` or `'remove'`. */
    readonly operation: 'save' | 'remove',
    cause: unknown,
  ) {
    const which = id === undefined ? `a new ${model}` : `${model} ${JSON.stringify(id)}`;
    super(
      `transaction refused at its ${operation} #${index} (${which}), nothing was written: ${(cause as Error)?.message ?? String(cause)}`,
      {
        cause,
      },
    );
  }
}

/** A query the indexes cannot answer (it names the attribute and the index it needs), or a malformed query. */
export class QueryError extends RedisRecordError {}

function describe(errors: AttributeFailure[]): string {
  const parts: string[] = [];
  for (const error of errors) {
    const messages = Object.values(error.constraints ?? {});
    parts.push(messages.length > 0 ? messages.join(', ') : `${error.property} is invalid`);
  }
  return parts.join('; ');
}

function safeRepr(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
