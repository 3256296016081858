import { SchemaError } from '../errors/errors';
import { addPendingIndex } from '../metadata/pending-metadata';

/** The options of `@Index`: `sortable` (a lexicographic index of a string) and `scope` (one index per value of another attribute); docs/indexes-and-queries.md. */
export interface IndexOptions {
  /** Strings only: keep them in lexicographic order too, for ranges, startsWith and orderBy. */
  sortable?: boolean;
  /** A sorted index per value of this attribute (e.g. createdAt per userId): O(log N + k) scoped pages. */
  scope?: string;
}

/** The options of `@Unique`: `caseInsensitive` compares strings in lower case (docs/indexes-and-queries.md#unique-values). */
export interface UniqueOptions {
  /** Compare values in lower case: 'Ann@x.io' and 'ann@x.io' collide. */
  caseInsensitive?: boolean;
}

function propertyDecorator(kind: 'index' | 'unique', options: object): PropertyDecorator {
  return (target: object, property: string | symbol) => {
    if (typeof target === 'function' || typeof property !== 'string') {
      throw new SchemaError(`${String(property)}: @${kind === 'index' ? 'Index' : 'Unique'} goes on instance attributes`);
    }
    addPendingIndex(target, { property, owner: target.constructor.name, kind, options });
  };
}

/** A secondary index on the attribute, maintained in the same atomic script as every write. */
export function Index(options: IndexOptions = {}): PropertyDecorator {
  return propertyDecorator('index', options);
}

type StringMismatch = { mismatch: 'a property declared as a string (caseInsensitive compares strings)' };

/** `unknown` when property `K` of `P` is declared (less null and undefined) as a string, else `StringMismatch`. */
type DeclaredAsString<P, K> = K extends keyof P ? ([NonNullable<P[K]>] extends [string] ? unknown : StringMismatch) : StringMismatch;

/** The decorator `@Unique({ caseInsensitive: true })` returns: it goes on a property declared as a string. */
export type StringAttrDecorator = <P extends object, K extends string | symbol>(target: P, property: K & DeclaredAsString<P, K>) => void;

/** No two objects of the model hold the same value; enforced inside the atomic write. */
export function Unique(options: UniqueOptions & { caseInsensitive: true }): StringAttrDecorator;
export function Unique(options?: UniqueOptions): PropertyDecorator;
export function Unique(options: UniqueOptions = {}): PropertyDecorator {
  return propertyDecorator('unique', options);
}
