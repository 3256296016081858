import { describeValue } from '../util/describe-value';
import { SchemaError } from '../errors/errors';
import { decoratorCall } from '../model/decorator-call';
import { hasDescriptor } from '../model/model-registry';
import { addPendingIndex } from '../model/pending-metadata';
import { decoratorOptions } from '../model/decorator-options';
import type { FieldDecorator, NamesProperties } from './decorator-types';
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
}

/** The options of `@Unique`: `caseInsensitive` compares strings in lower case (docs/indexes-and-queries.md#unique-values). */
export interface UniqueOptions {
  /** Compare values in lower case: 'Ann@x.io' and 'ann@x.io' collide. */
  caseInsensitive?: boolean;
}

/** The names `@Index` and `@Unique` take (any other is a SchemaError: a misspelt `sortabel` would be ignored). */
const INDEX_OPTIONS = ['sortable', 'scope'] as const satisfies ReadonlyArray<keyof IndexOptions>;
const UNIQUE_OPTIONS = ['caseInsensitive'] as const satisfies ReadonlyArray<keyof UniqueOptions>;

function propertyDecorator(kind: 'index' | 'unique', given: object | undefined): FieldDecorator {
  const decorator = kind === 'index' ? '@Index' : '@Unique';
  return memberDecorator(decorator, 'field', (target, property) => {
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
}

/**
 * What `@Index({ sortable: true })` asks for: a property declared as a string. A property declared otherwise makes
 * the decorator's key argument fail to compile, with this text as the `mismatch` in the error.
 */
export type SortableMismatch = 'a property declared as a string (sortable orders strings; numbers and Dates are always ordered)';

/** A secondary index on the attribute, maintained in the same atomic script as every write. */
export function Index(options: IndexOptions & { sortable: true }): StringAttrDecorator<SortableMismatch>;
export function Index(options?: IndexOptions): FieldDecorator;
export function Index(options?: IndexOptions): FieldDecorator {
  if (refusedBareUse('@Index', arguments)) return undefined as never;
  return propertyDecorator('index', options);
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
export function Unique(options?: UniqueOptions): FieldDecorator;
export function Unique(options?: UniqueOptions | readonly string[]): FieldDecorator | CompositeUniqueDecorator<string> {
  if (Array.isArray(options)) return compositeUnique(options);
  if (refusedBareUse('@Unique', arguments)) return undefined as never;
  return propertyDecorator('unique', options as UniqueOptions | undefined);
}

/** The class decorator of a composite unique: its names are checked against the attributes by `@Model`. */
function compositeUnique(names: readonly unknown[]): CompositeUniqueDecorator<string> {
  const shown = `@Unique([${names.map((name) => describeValue(name)).join(', ')}])`;
  return ((...args: unknown[]) => {
    const call = decoratorCall(args);
    const target = call?.form === 'legacy' ? (call.key === undefined && !call.parameter ? call.target : undefined) : call?.value;
    const onClass = call?.form === 'legacy' || call?.context.kind === 'class';
    if (!onClass || typeof target !== 'function') throw new SchemaError(`${shown} goes on a class, under @Model()`);
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
