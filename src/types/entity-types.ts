import type { RelationHandle } from './relation-handle';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- matches every method, whatever its parameters
type AnyFunction = (...args: any[]) => any;

/**
 * The members every entity has that are not attributes (the methods aside, which are left out by their type):
 * BaseEntity's `id`.
 */
type EntityMember = 'id';

/** The names of an entity's attributes: its own non-method properties. */
export type AttributeName<T> = {
  [K in keyof T]-?: K extends EntityMember
    ? never
    : T[K] extends AnyFunction
      ? never
      : NonNullable<T[K]> extends RelationHandle
        ? never
        : K extends string
          ? K
          : never;
}[keyof T];

/** Whether property `K` of `T` is read-only: a getter without a setter (a `@Computed()` value), or `readonly`. */
export type IsReadonly<T, K extends keyof T> =
  (<U>() => U extends { [Q in K]: T[K] } ? 1 : 2) extends <U>() => U extends { -readonly [Q in K]: T[K] } ? 1 : 2 ? false : true;

/** The attributes a caller can give (build, create, update): all but the read-only ones (computed values). */
export type WritableName<T> = { [K in AttributeName<T>]-?: IsReadonly<T, K> extends true ? never : K }[AttributeName<T>];

/** Attributes that can be counters: the number-typed ones (the runtime checks for @Counter). */
export type CounterName<T> = { [K in AttributeName<T>]-?: NonNullable<T[K]> extends number ? K : never }[AttributeName<T>];

/**
 * Marks entities: BaseEntity declares it as a private member, AttributeInput as a public one (`never`), and an
 * object with a private member is not assignable to a type whose member of that name is public. So an entity,
 * of any model, does not pass as attributes, while a `Partial<Post>` (mapped types leave private members out)
 * still does.
 */
export declare const entityInstance: unique symbol;

/**
 * What `build` and `create` accept: any subset of the attributes, each of its declared type (or null = absent);
 * not an entity, whose properties are not attributes given by the caller. `id` only for a model declared
 * `@Model({ idStrategy: 'given' })` (another model's create refuses it with a ValidationError).
 */
export type AttributeInput<T> = { [K in WritableName<T>]?: T[K] | null } & {
  /** The new object's id, on a model whose ids are given (`idStrategy: 'given'`). */
  readonly id?: string | null;
  /** @hidden */
  readonly [entityInstance]?: never;
};

/** An entity known to be stored: its id is set. */
export type Persisted<T> = T & {
  /** The object's id ('1', '2', ... or a uuid), always set. */
  readonly id: string;
};

/** A model class, as the `this` of BaseEntity's static methods, so `Post.find` resolves to Post. */
export interface EntityClass<T> {
  new (): T;
}

/** The options of `save()` and `create()`: `validate: false` skips class-validator; `waitReplicas` and `waitTimeoutMs` as the model's (docs/cluster.md#waitreplicas-and-failover); `ttl`. */
export interface SaveOptions {
  /** `false` skips class-validator (codecs still refuse values that cannot be stored). Default true. */
  validate?: boolean;
  /**
   * Replicas that must acknowledge the write (WAIT) before save() resolves, over the model's `waitReplicas`;
   * 0 does not wait. ReplicationError when fewer did within `waitTimeoutMs` (the write stands). docs/cluster.md.
   */
  waitReplicas?: number;
  /** How long to wait for them, in ms (default: the model's, else 1000). */
  waitTimeoutMs?: number;
  /**
   * Seconds the object lives from this write (millisecond precision), set in the same script: a created object's
   * instead of the model's `ttl`, a stored one's replacing its own. An expirable model's only (docs/writes.md).
   */
  ttl?: number;
}

/** The options of `create()`: those of `save()`, and an idempotency key (docs/transactions-and-retries.md). */
export interface CreateOptions extends SaveOptions {
  /**
   * Stores the object once however often the call is retried under this key (1 to 256 characters) within
   * `idempotencyTtl`: a retry writes nothing and resolves with the object the first call stored.
   */
  idempotencyKey?: string;
  /** Seconds the key is remembered (default: the model's `idempotencyTtl`, else 24 hours). */
  idempotencyTtl?: number;
}
