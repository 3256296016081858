import type { AttributeName } from '../types/entity-types';
import type { sortableBrand } from './sortable-string';

type IsSortable<V> = typeof sortableBrand extends keyof V ? true : false;

/** The range operators of an ordered attribute (a number, a Date or a `SortableString`) in a where. */
export interface RangeOperators<V> {
  gt?: V;
  gte?: V;
  lt?: V;
  lte?: V;
}

/**
 * Operators an attribute's type does not take, spelled out as `never`: a condition object built apart (held in a
 * variable, where no excess-property check applies) must not carry them either.
 */
export interface NoRanges {
  gt?: never;
  gte?: never;
  lt?: never;
  lte?: never;
}
export interface NoStartsWith {
  startsWith?: never;
}

/** The conditions one attribute accepts, by its type: ranges only where an ordered index can exist. */
export type Condition<V> = [V] extends [Date]
  ? Date | ({ in?: readonly Date[] } & RangeOperators<Date> & NoStartsWith)
  : [V] extends [number]
    ? V | ({ in?: readonly V[] } & RangeOperators<number> & NoStartsWith)
    : [V] extends [boolean]
      ? boolean | ({ in?: readonly boolean[] } & NoRanges & NoStartsWith)
      : [V] extends [string]
        ? IsSortable<V> extends true
          ? string | ({ in?: readonly string[]; startsWith?: string } & RangeOperators<string>)
          : V | ({ in?: readonly V[] } & NoRanges & NoStartsWith)
        : [V] extends [object]
          ? never
          : V | ({ in?: readonly V[] } & NoRanges & NoStartsWith);

/**
 * Conditions on attributes, ANDed; `OR` adds alternatives (each a Where), ANDed with the rest. `OR` takes at least
 * one alternative: an empty OR would match nothing (or, read as "no alternative", everything), so it is refused.
 */
export type Where<T> = { [K in AttributeName<T>]?: Condition<NonNullable<T[K]>> } & {
  OR?: readonly [Where<T>, ...Array<Where<T>>];
};

type Orderable<V> = [V] extends [number] ? true : [V] extends [Date] ? true : [V] extends [string] ? IsSortable<V> : false;

/** Attributes a query can be ordered by: numbers, Dates and sortable strings. */
export type OrderableName<T> = {
  [K in AttributeName<T>]-?: Orderable<NonNullable<T[K]>> extends true ? K : never;
}[AttributeName<T>];

/** The direction of an `orderBy`. */
export type Direction = 'asc' | 'desc';

/** `@BelongsTo` properties, whose parents `include` loads in one more round trip. */
export type IncludableName<T> = {
  [K in keyof T]-?: NonNullable<T[K]> extends { set(parent: any): void; load(): Promise<unknown> } ? K : never;
}[keyof T] &
  string;

/** The options of `findBy`: `orderBy` (one ordered attribute), `offset`, `limit` and `include` (docs/indexes-and-queries.md). */
export interface FindOptions<T> {
  /** One indexed attribute. Ties are ordered by id; 'desc' is the exact reverse of 'asc'. Default: by id. */
  orderBy?: { [K in OrderableName<T>]?: Direction };
  offset?: number;
  limit?: number;
  /** `@BelongsTo` relations whose parents are read too: one more round trip for all of them, no N+1. */
  include?: ReadonlyArray<IncludableName<T>>;
}

/**
 * What findIds takes: FindOptions without `include` (it returns ids, with nothing to include). `include` is
 * spelled out as `never`, so that options held in a variable of type FindOptions<T> are refused as well.
 */
export type FindIdsOptions<T> = Omit<FindOptions<T>, 'include'> & { include?: never };

/** What findOneBy takes: FindOptions without `limit` (it answers one object), spelled out as `never` likewise. */
export type FindOneOptions<T> = Omit<FindOptions<T>, 'limit'> & { limit?: never };

/** The options of `iterate`. */
export interface IterateOptions {
  /** Objects read per round trip (default 500): memory stays bounded whatever the number of matches. */
  batchSize?: number;
}
