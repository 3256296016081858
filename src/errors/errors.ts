import type { ValidationError as ClassValidatorError } from 'class-validator';
import { describeValue } from './describe-value';

/** Base class of every error redis-record throws on purpose. */
export class RedisRecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A model definition that cannot work: thrown when the class is defined, naming class and property. */
export class SchemaError extends RedisRecordError {}

/** An argument that cannot work: a bad prefix or tenant name, an amount or a time out of range, bad options. */
export class ArgumentError extends RedisRecordError {}

/** No connection: `connect()` was not called, or `disconnect()` was. */
export class ConnectionError extends RedisRecordError {}

/**
 * The entity (or the input given to `create`/`build`) is not valid; nothing was written.
 * `errors` is class-validator's array (codec failures such as NaN appear there too).
 */
export class ValidationError extends RedisRecordError {
  readonly errors: ClassValidatorError[];
  constructor(model: string, errors: ClassValidatorError[]) {
    super(`${model} is not valid: ${describe(errors)}`);
    this.errors = errors;
  }
}

/** The object does not exist (any more). */
export class NotFoundError extends RedisRecordError {
  constructor(
    readonly model: string,
    readonly id: string,
  ) {
    super(`${model} ${JSON.stringify(id)} not found`);
  }
}

/** An id that is not of the form a model's keys can hold; it could otherwise forge another key. */
export class InvalidIdError extends RedisRecordError {
  constructor(
    readonly model: string,
    readonly id: unknown,
  ) {
    super(
      `${model}: invalid id ${describeValue(id)}: ids are 1 to 128 characters of A-Z a-z 0-9 _ -, or a non-negative safe integer`,
    );
  }
}

/** A value read from Redis that the attribute's codec cannot decode (written by something else). */
export class DecodeError extends RedisRecordError {
  constructor(
    readonly model: string,
    readonly id: string,
    readonly attribute: string,
    reason: string,
  ) {
    super(`${model} ${JSON.stringify(id)}: attribute ${attribute} cannot be decoded: ${reason}`);
  }
}

/** A unique value is already held by another object; nothing was written. */
export class UniqueConstraintError extends RedisRecordError {
  constructor(
    readonly model: string,
    readonly attribute: string,
    readonly value: unknown,
  ) {
    super(`${model}.${attribute} must be unique: ${safeRepr(value)} is taken`);
  }
}

/** The instance's `@Version` is behind the stored one: someone saved in between. Nothing was written. */
export class StaleObjectError extends RedisRecordError {
  constructor(
    readonly model: string,
    readonly id: string,
  ) {
    super(`${model} ${JSON.stringify(id)} was changed by someone else since it was loaded; reload and retry`);
  }
}

/** withLock could not take the lock within waitMs. */
export class LockTimeoutError extends RedisRecordError {
  constructor(
    readonly model: string,
    readonly id: string,
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
    readonly model: string,
    readonly id: string,
    readonly operation: string,
    readonly wanted: number,
    readonly acknowledged: number,
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
    readonly key: string,
    readonly expected: string,
    readonly found: string,
  ) {
    super(`${key} holds a ${found}, not the ${expected} redis-record keeps there; nothing was written (check() names such keys, repair() settles them)`);
  }
}

/** A query the indexes cannot answer (it names the attribute and the index it needs), or a malformed query. */
export class QueryError extends RedisRecordError {}

function describe(errors: ClassValidatorError[]): string {
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
