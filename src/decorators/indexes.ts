import { describeValue } from '../util/describe-value';
import { SchemaError } from '../errors/errors';
import { decoratorCall } from '../model/decorator-call';
import { hasDescriptor } from '../model/model-registry';
import { addPendingIndex } from '../model/pending-metadata';
import { decoratorOptions } from '../model/decorator-options';
import type { FieldOrGetterDecorator, NamesProperties, NotAMethod } from './decorator-types';
import { memberDecorator, refusedBareUse } from './member-decorator';

/** The options of `@Index`: `sortable` (a lexicographic index of a string) and `scope` (one index per value of another attribute); docs/indexes-and-queries.md. */
export interface IndexOptions {
  /**
   * Strings only: keep them in lexicographic order too, for ranges, startsWith and orderBy. Numbers and Dates are
   * always ordered: `sortable` on one is a SchemaError (and `sortable: true` compiles only on a string property).
   */
  sortable?: boolean;
  /** A sorted index per value of this attribute (e.g. createdAt per userId): O(log N + k) scoped pages. */
  scope?: string;
  /**
   * A JSON array attribute (`@Attr({ type: 'json' }) tags: string[]`): one entry per string element, for
   * `{ tags: { has } }`, `hasAny` and `hasAll` (docs/array-computed-compound-indexes.md).
   */
  each?: boolean;
}

/** The options of `@Unique`: `caseInsensitive` compares strings in lower case (docs/indexes-and-queries.md#unique-values). */
export interface UniqueOptions {
  /** Compare values in lower case: 'Ann@x.io' and 'ann@x.io' collide. */
  caseInsensitive?: boolean;
}

/** The names `@Index` and `@Unique` take (any other is a SchemaError: a misspelt `sortabel` would be ignored). */
const INDEX_OPTIONS = ['sortable', 'scope', 'each'] as const satisfies ReadonlyArray<keyof IndexOptions>;
const UNIQUE_OPTIONS = ['caseInsensitive'] as const satisfies ReadonlyArray<keyof UniqueOptions>;

function propertyDecorator(kind: 'index' | 'unique', given: object | undefined): FieldOrGetterDecorator {
  const decorator = kind === 'index' ? '@Index' : '@Unique';
  // a getter is a computed value (@Computed()), which @Model checks
  return memberDecorator(decorator, 'field or getter', (target, property) => {
    const owner = typeof target === 'function' ? target.name : target.constructor.name;
    if (typeof target === 'function' || typeof property !== 'string') {
      const refused = typeof target === 'function' ? 'not static ones' : 'named by strings, not symbols';
      throw new SchemaError(`${owner}.${String(property)}: ${decorator} goes on instance attributes, ${refused}`);
    }
    const options = decoratorOptions(`${owner}.${property}`, decorator, given, kind === 'index' ? INDEX_OPTIONS : UNIQUE_OPTIONS);
    addPendingIndex(target, { property, owner, kind, options });
  });
}

/** `unknown` when a declared type `V` (less null and undefined) is a string, else `{ mismatch: Why }`. */
export type ValueIsString<V, Why> = [NonNullable<V>] extends [string]
  ? unknown
  : {
      /** What the declaration should be (`Why`): shown in the compiler's error. */
      mismatch: Why;
    };

/** `unknown` when property `K` of `P` is declared (less null and undefined) as a string, else `{ mismatch: Why }`. */
export type DeclaredAsString<P, K, Why> = K extends keyof P
  ? ValueIsString<P[K], Why>
  : {
      /** What the declaration should be (`Why`): shown in the compiler's error. */
      mismatch: Why;
    };

/**
 * The decorator `@Unique({ caseInsensitive: true })` and `@Index({ sortable: true })` return: it goes on a property
 * declared as a string. `Why` is the text the compiler's error shows for a property declared otherwise.
 */
export interface StringAttrDecorator<Why extends string = 'a property declared as a string (caseInsensitive compares strings)'> {
  /** Legacy form. */
  <P extends object, K extends string | symbol>(target: P, property: K & DeclaredAsString<P, K, Why>, descriptor?: undefined): void;
  /** Standard form: `V` is the field's declared type. */
  <This, V>(value: undefined, context: ClassFieldDecoratorContext<This, V> & ValueIsString<V, Why>): void;
  /** Legacy form on a getter (a computed value): `V` is its value type. */
  <V>(target: object, property: string | symbol, descriptor: TypedPropertyDescriptor<V> & NotAMethod<V> & ValueIsString<V, Why>): void;
  /** Standard form on a getter. */
  <This, V>(value: (this: This) => V, context: ClassGetterDecoratorContext<This, V> & ValueIsString<V, Why>): void;
}

/**
 * What `@Index({ sortable: true })` asks for: a property declared as a string. A property declared otherwise makes
 * the decorator's key argument fail to compile, with this text as the `mismatch` in the error.
 */
export type SortableMismatch = 'a property declared as a string (sortable orders strings; numbers and Dates are always ordered)';

/**
 * What `@Index({ each: true })` asks for: a property declared as an array of strings. A property declared
 * otherwise makes the decorator's key argument fail to compile, with this text as the `mismatch` in the error.
 */
export type EachMismatch = 'a property declared as an array of strings (each indexes the elements)';

/** What a decorator's argument must satisfy when the declaration does not suit it: `Why` shows in the error. */
export interface Mismatch<Why extends string> {
  /** What the declaration should be (`Why`): shown in the compiler's error. */
  mismatch: Why;
}

/** `unknown` when property `K` of `P` is declared (less null and undefined) as an array of strings. */
export type DeclaredAsStringArray<P, K> = K extends keyof P
  ? [NonNullable<P[K]>] extends [readonly string[]]
    ? unknown
    : Mismatch<EachMismatch>
  : Mismatch<EachMismatch>;

/** The decorator `@Index({ each: true })` returns: it goes on a property declared as an array of strings. */
export interface EachAttrDecorator {
  /** Legacy form. */
  <P extends object, K extends string | symbol>(target: P, property: K & DeclaredAsStringArray<P, K>, descriptor?: undefined): void;
  /** Standard form: `V` is the field's declared type. */
  <This, V>(
    value: undefined,
    context: ClassFieldDecoratorContext<This, V> & ([NonNullable<V>] extends [readonly string[]] ? unknown : { mismatch: EachMismatch }),
  ): void;
}

/**
 * What a compound `@Index(['a', 'b'])` goes on: a class whose instances have each named property, holding a
 * number, a Date or a string. A name that is no such property makes the decorator fail to compile.
 */
export interface CompoundIndexDecorator<N extends string> {
  /** Legacy form: the class. */
  <C extends abstract new (...args: never[]) => object>(target: C & CompoundParts<InstanceType<C>, N>): void;
  /** Standard form: the class and its context. */
  <C extends abstract new (...args: never[]) => object>(value: C & CompoundParts<InstanceType<C>, N>, context: ClassDecoratorContext): void;
}

/** What `@Index([...])` asks for: each name a property holding a number, a Date or a string. */
export type CompoundMismatch = 'properties of the class holding numbers, Dates or strings';

/** `unknown` when every name in `N` is a property of `T` holding a CompoundPartValue, else `{ mismatch }`. */
export type CompoundParts<T, N extends string> = [N] extends [keyof T]
  ? [T[N & keyof T]] extends [CompoundPartValue]
    ? unknown
    : Mismatch<CompoundMismatch>
  : Mismatch<CompoundMismatch>;

/** What each part of a compound index holds. */
export type CompoundPartValue = number | Date | string | null | undefined;

/**
 * A secondary index on the attribute, maintained in the same atomic script as every write. On the class, with a
 * list of attributes, a compound ordered index (`@Index(['score', 'createdAt'])`, as TypeORM declares it): goes
 * below `@Model()`.
 */
export function Index<const N extends string>(parts: readonly [N, N, ...N[]]): CompoundIndexDecorator<N>;
export function Index(options: IndexOptions & { sortable: true }): StringAttrDecorator<SortableMismatch>;
export function Index(options: IndexOptions & { each: true }): EachAttrDecorator;
export function Index(options?: IndexOptions): FieldOrGetterDecorator;
export function Index(options?: IndexOptions | readonly string[]): FieldOrGetterDecorator | CompoundIndexDecorator<string> {
  if (Array.isArray(options)) return compoundIndexDecorator(options as readonly unknown[]);
  if (refusedBareUse('@Index', arguments)) return undefined as never;
  return propertyDecorator('index', options as IndexOptions | undefined);
}

/** The class decorator of `@Index([...])`: leaves a pending compound index on the prototype for `@Model`. */
function compoundIndexDecorator(parts: readonly unknown[]): CompoundIndexDecorator<string> {
  const names = [...parts];
  return ((...args: unknown[]) => {
    const target = classOf(args);
    if (!target) throw new SchemaError(`@Index([...]) goes on a class; on a property, write @Index()`);
    if (!names.every((name): name is string => typeof name === 'string')) {
      throw new SchemaError(`${target.name}: @Index([...]) takes attribute names`);
    }
    if (hasDescriptor(target)) {
      throw new SchemaError(`${target.name}: put @Index([...]) below @Model() (class decorators run from the bottom up)`);
    }
    addPendingIndex(target.prototype as object, {
      property: names.join('+'),
      owner: target.name,
      kind: 'index',
      options: {},
      parts: names,
    });
  }) as CompoundIndexDecorator<string>;
}

/** The class a class decorator was called on (either standard), or undefined when it was put anywhere else. */
function classOf(args: unknown[]): Function | undefined {
  const call = decoratorCall(args);
  const target = call?.form === 'legacy' ? (call.key === undefined && !call.parameter ? call.target : undefined) : call?.value;
  const onClass = call?.form === 'legacy' || call?.context.kind === 'class';
  return onClass && typeof target === 'function' ? target : undefined;
}

/**
 * The decorator `@Unique(['userId', 'channelId'])` returns: it goes on the class (under `@Model()`), and a name
 * that is no property of its instances fails to compile.
 */
export interface CompositeUniqueDecorator<K extends string> {
  /** Legacy form: the class. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any constructor
  <C extends abstract new (...args: any[]) => object>(target: C & NamesProperties<InstanceType<C>, K>): void;
  /** Standard form: the class and its context. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any constructor
  <C extends abstract new (...args: any[]) => object>(
    value: C & NamesProperties<InstanceType<C>, K>,
    context: ClassDecoratorContext<C>,
  ): void;
}

/**
 * No two objects of the model hold the same value; enforced inside the atomic write. On the class, with the names
 * of attributes, `@Unique(['userId', 'channelId'])`: no two objects hold the same values of all of them together
 * (an object missing any of them claims nothing, as SQL does with NULL); docs/models.md#composite-uniques.
 */
export function Unique<const K extends string>(attributes: readonly [K, ...K[]]): CompositeUniqueDecorator<K>;
export function Unique(options: UniqueOptions & { caseInsensitive: true }): StringAttrDecorator;
export function Unique(options?: UniqueOptions): FieldOrGetterDecorator;
export function Unique(options?: UniqueOptions | readonly string[]): FieldOrGetterDecorator | CompositeUniqueDecorator<string> {
  if (Array.isArray(options)) return compositeUnique(options);
  if (refusedBareUse('@Unique', arguments)) return undefined as never;
  return propertyDecorator('unique', options as UniqueOptions | undefined);
}

/** The class decorator of a composite unique: its names are checked against the attributes by `@Model`. */
function compositeUnique(names: readonly unknown[]): CompositeUniqueDecorator<string> {
  const shown = `@Unique([${names.map((name) => describeValue(name)).join(', ')}])`;
  return ((...args: unknown[]) => {
    const target = classOf(args);
    if (!target) throw new SchemaError(`${shown} goes on a class, under @Model()`);
    if (names.length === 0 || !names.every((name) => typeof name === 'string')) {
      throw new SchemaError(`${target.name}: ${shown} takes the names of one or more attributes`);
    }
    if (hasDescriptor(target)) throw new SchemaError(`${target.name}: ${shown} goes under @Model(), which reads it`);
    const parts = names as string[];
    const owner = target.name;
    if (parts.length === 1) addPendingIndex(target.prototype, { property: parts[0], owner, kind: 'unique', options: {} });
    else addPendingIndex(target.prototype, { property: parts.join('+'), owner, kind: 'unique', options: {}, parts });
  }) as CompositeUniqueDecorator<string>;
}
