import { AttributeDescriptor } from './attribute-descriptor';

/**
 * - `set`:    one set of ids per value (strings, booleans, custom codecs): equality and `in`.
 * - `score`:  one sorted set scored by the value (numbers, Dates): equality, ranges, order.
 * - `lex`:    one sorted set of `value \0\0 id` members, all scored 0 (sortable strings): equality,
 *             ranges, startsWith, order.
 * - `unique`: one hash value -> owning id.
 */
export type IndexKind = 'set' | 'score' | 'lex' | 'unique';

export interface IndexDescriptor {
  readonly kind: IndexKind;
  readonly attribute: AttributeDescriptor;
  /** Scoped (composite) sorted index: one sorted set per value of this attribute. */
  readonly scope?: AttributeDescriptor;
  /** Unique only: values compared in lower case (the lower-cased form is kept in the internal field `#ci:<attr>`). */
  readonly caseInsensitive: boolean;
}

/** Internal hash field holding the lower-cased form of a case-insensitive unique attribute. */
export function caseFoldField(attribute: string): string {
  return `#ci:${attribute}`;
}

/**
 * A case-insensitive unique value in the form its index compares: what a save writes to the `#ci:` field and
 * claims, what a query looks up, and what the checker expects.
 */
export function foldCase(value: string): string {
  return value.toLowerCase();
}
