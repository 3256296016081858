import type { AttributeName, Persisted } from './entity-types';
import type { sortableBrand } from '../codecs/sortable-string';

type IsSortable<V> = typeof sortableBrand extends keyof V ? true : false;

/** The range operators of an ordered attribute (a number, a Date or a `SortableString`) in a where. */
export interface RangeOperators<V> {
  /** Matches values greater than this one (strings compared by their UTF-8 bytes). */
  gt?: V;
  /** Matches values greater than or equal to this one. */
  gte?: V;
  /** Matches values less than this one; absent values, though last in ascending order, never match. */
  lt?: V;
  /** Matches values less than or equal to this one. */
  lte?: V;
}

/**
 * Operators an attribute's type does not take, spelled out as `never`: a condition object built apart (held in a
 * variable, where no excess-property check applies) must not carry them either.
 */
export interface NoRanges {
  /** Not accepted: ranges apply only to numbers, Dates and `SortableString`s. */
  gt?: never;
  /** Not accepted: ranges apply only to numbers, Dates and `SortableString`s. */
  gte?: never;
  /** Not accepted: ranges apply only to numbers, Dates and `SortableString`s. */
  lt?: never;
  /** Not accepted: ranges apply only to numbers, Dates and `SortableString`s. */
  lte?: never;
}
/**
 * `startsWith`, which only a `SortableString` takes, spelled out as `never` for every other type: a condition
 * object built apart must not carry it either.
 */
export interface NoStartsWith {
  /** Not accepted: only a `SortableString` attribute takes `startsWith`. */
  startsWith?: never;
}

/** `in`, `not`, `notIn` and `exists`, which every indexed attribute takes in a where. */
export interface InOperator<V> {
  /** Matches any of these values; `[]` matches nothing. */
  in?: readonly V[];
  /** Matches every object whose value is another one, objects without a value included (add `exists: true` to leave them out). */
  not?: V;
  /** Matches every object whose value is none of these, objects without a value included; `[]` matches every object. */
  notIn?: readonly V[];
  /** true: objects with a value; false: objects without one. */
  exists?: boolean;
}

/** `startsWith`, which a `SortableString` attribute takes in a where. */
export interface StartsWithOperator {
  /** Matches values that begin with this string; `''` matches every present value. */
  startsWith?: string;
}

/**
 * The operators of an array of strings with a tag index (`@Index({ each: true })`): conditions on its elements.
 * A where holding several of them matches arrays that satisfy each.
 */
export interface TagOperators {
  /** Matches arrays holding this element. */
  has?: string;
  /** Matches arrays holding at least one of these elements; `[]` matches nothing. */
  hasAny?: readonly string[];
  /** Matches arrays holding every one of these elements; `[]` matches every object. */
  hasAll?: readonly string[];
  /** true: objects whose array holds an element; false: objects without one (no array, or an empty one). */
  exists?: boolean;
}

/** The conditions one attribute accepts, by its type: ranges only where an ordered index can exist. */
export type Condition<V> = [V] extends [Date]
  ? Date | (InOperator<Date> & RangeOperators<Date> & NoStartsWith)
  : [V] extends [number]
    ? V | (InOperator<V> & RangeOperators<number> & NoStartsWith)
    : [V] extends [boolean]
      ? boolean | (InOperator<boolean> & NoRanges & NoStartsWith)
      : [V] extends [string]
        ? IsSortable<V> extends true
          ? string | (InOperator<string> & StartsWithOperator & RangeOperators<string>)
          : V | (InOperator<V> & NoRanges & NoStartsWith)
        : [V] extends [readonly string[]]
          ? TagOperators
          : [V] extends [object]
            ? never
            : V | (InOperator<V> & NoRanges & NoStartsWith);

/**
 * Conditions on attributes, ANDed; `OR` adds alternatives (each a Where), ANDed with the rest. `OR` takes at least
 * one alternative: an empty OR would match nothing (or, read as "no alternative", everything), so it is refused.
 */
export type Where<T> = { [K in AttributeName<T>]?: Condition<NonNullable<T[K]>> } & {
  /** Alternatives, each a Where: an object matches when it matches at least one (and the rest of the where). */
  OR?: readonly [Where<T>, ...Array<Where<T>>];
};

type Orderable<V> = [V] extends [number] ? true : [V] extends [Date] ? true : [V] extends [string] ? IsSortable<V> : false;

/** Attributes a query can be ordered by: numbers, Dates and sortable strings. */
export type OrderableName<T> = {
  [K in AttributeName<T>]-?: Orderable<NonNullable<T[K]>> extends true ? K : never;
}[AttributeName<T>];

/** An `orderBy`: one attribute, or a list of one-attribute entries (a compound index's parts, in order). */
export type OrderBy<T> = { [K in OrderableName<T>]?: Direction } | ReadonlyArray<{ [K in OrderableName<T>]?: Direction }>;

/** The direction of an `orderBy`. */
export type Direction = 'asc' | 'desc';

/** `@BelongsTo` properties, whose parents `include` loads in one more round trip. */
export type IncludableName<T> = {
  [K in keyof T]-?: NonNullable<T[K]> extends {
    /** The handle's `set`: with `load`, what tells a `@BelongsTo` property from the others. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any parent type: the parameter is contravariant
    set(parent: any): void;
    /** The handle's `load`, which answers without a read once `include` has read the parent. */
    load(): Promise<unknown>;
  }
    ? K
    : never;
}[keyof T] &
  string;

/**
 * The options of `Model.rank`: the ordered attribute `by` (with its `@Index()`, or `sortable` for a string), the
 * direction (default 'asc'), and `per`, the scope attribute of a scoped index (the position among the objects
 * holding the same value of it).
 */
export interface RankOptions<T> {
  /** The ordered attribute, as `orderBy` names it. */
  by: OrderableName<T>;
  /** 'asc' (default) or 'desc': the position in `find({ orderBy: { [by]: order } })`. */
  order?: Direction;
  /** The scope attribute of an index of `by` scoped by it (`@Index({ scope })`). */
  per?: AttributeName<T>;
}

/** The options of `findBy`: `orderBy` (one ordered attribute), `offset`, `limit` and `include` (docs/indexes-and-queries.md). */
export interface FindOptions<T> {
  /**
   * One indexed attribute, or a list of them that a compound index (`@Index(['score', 'createdAt'])`) orders, each
   * with its own direction. Ties are ordered by id; 'desc' is the exact reverse of 'asc'. Default: by id.
   */
  orderBy?: OrderBy<T>;
  /** How many matches to skip before the page (a whole number >= 0; absent: 0). Deep pages cost O(offset). */
  offset?: number;
  /** The most matches the page holds (a whole number >= 0; 0 returns nothing); absent: every match from `offset` on. */
  limit?: number;
  /** `@BelongsTo` relations whose parents are read too: one more round trip per relation, whatever the page's size (no N+1). */
  include?: ReadonlyArray<IncludableName<T>>;
}

/**
 * What findIds takes: FindOptions without `include` (it returns ids, with nothing to include). `include` is
 * spelled out as `never`, so that options held in a variable of type FindOptions<T> are refused as well.
 */
export type FindIdsOptions<T> = Omit<FindOptions<T>, 'include'> & {
  /** Not accepted: findIds returns ids, with no object to include parents into. */
  include?: never;
};

/** What findOneBy takes: FindOptions without `limit` (it answers one object), spelled out as `never` likewise. */
export type FindOneOptions<T> = Omit<FindOptions<T>, 'limit'> & {
  /** Not accepted: findOneBy sets its own limit (one object). */
  limit?: never;
};

/** The options of `findPage`: `orderBy` as findBy's, the page's size, and the cursor of the page before. */
export interface FindPageOptions<T> {
  /**
   * One indexed attribute, or the parts of a compound index all in one direction. Ties are ordered by id; 'desc'
   * is the exact reverse of 'asc'. Default: by id.
   */
  orderBy?: OrderBy<T>;
  /** The most matches the page holds (a whole number >= 1). */
  limit: number;
  /** The `next` of the page before; absent for the first page. */
  after?: string;
  /** `@BelongsTo` relations whose parents are read too, as in findBy. */
  include?: ReadonlyArray<IncludableName<T>>;
}

/** A keyset page: its objects, and the cursor of the page after it (null when no match follows). */
export interface Page<T> {
  /** The page's objects, in the order. */
  readonly items: Array<Persisted<T>>;
  /** An opaque string to pass as `after`; null at the end. */
  readonly next: string | null;
}

/**
 * Attributes whose values countBy can count: strings (sortable ones too), numbers, booleans, bigints and Dates, and
 * arrays of strings (a tag index's elements).
 */
export type FacetName<T> = {
  [K in AttributeName<T>]-?: [NonNullable<T[K]>] extends [string | number | boolean | bigint | Date | readonly string[]] ? K : never;
}[AttributeName<T>];

/** The options of `iterate`. */
export interface IterateOptions {
  /** Objects read per round trip (default 500): memory stays bounded whatever the number of matches. */
  batchSize?: number;
}
