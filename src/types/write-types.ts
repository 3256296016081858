import type { AttributeName, WritableName, entityInstance, Persisted, SaveOptions } from './entity-types';

/**
 * An operator `Model.update` applies to a stored array attribute, inside its script: `push` appends the values,
 * `addToSet` those it does not hold yet, `pull` removes every element equal to one of them. One value or an array
 * of them; one operator per attribute. Only an array attribute takes one (`never` for any other type).
 */
export type ArrayOperatorInput<V> = NonNullable<V> extends ReadonlyArray<infer E> ? PushInput<E> | PullInput<E> | AddToSetInput<E> : never;

/** `{ push }`: appends the value(s) to the stored array. */
export interface PushInput<E> {
  /** The value, or values, appended in order. */
  push: E | readonly E[];
  /** One operator per attribute. */
  pull?: never;
  /** One operator per attribute. */
  addToSet?: never;
}

/** `{ pull }`: removes every element equal to the value, or to one of the values. */
export interface PullInput<E> {
  /** The value, or values, whose equal elements are removed. */
  pull: E | readonly E[];
  /** One operator per attribute. */
  push?: never;
  /** One operator per attribute. */
  addToSet?: never;
}

/** `{ addToSet }`: appends the value(s) the stored array does not hold yet. */
export interface AddToSetInput<E> {
  /** The value, or values, appended when absent. */
  addToSet: E | readonly E[];
  /** One operator per attribute. */
  push?: never;
  /** One operator per attribute. */
  pull?: never;
}

/**
 * What `Model.update` writes: any subset of the attributes, each of its declared type, or for an array attribute
 * an array operator (ArrayOperatorInput); null removes the attribute, a key holding undefined is left out (the
 * stored value stays). No id: the object is named apart.
 */
export type UpdateInput<T> = { [K in WritableName<T>]?: T[K] | ArrayOperatorInput<T[K]> | null } & {
  /** @hidden */
  readonly [entityInstance]?: never;
};

/** The options of `Model.update`: `validate` and `ttl` as save()'s. */
export type UpdateOptions = Pick<SaveOptions, 'validate' | 'ttl'>;

/** The options of `Model.upsert`. */
export interface UpsertOptions<T> extends Pick<SaveOptions, 'validate' | 'ttl'> {
  /** The `@Unique` attribute whose value finds the object to update, or the attributes of a composite unique. */
  on: AttributeName<T> | ReadonlyArray<AttributeName<T>>;
  /** `false` leaves an object that holds the value as it is (insert if absent). Default true. */
  update?: boolean;
}

/** What `Model.upsert` resolves with: the object as stored after the call, and whether the call created it. */
export interface UpsertResult<T> {
  /** The object as stored after the call: the one created, or the one holding the value. */
  readonly entity: Persisted<T>;
  /** True when the call created the object; false when an object held the value already. */
  readonly created: boolean;
}
