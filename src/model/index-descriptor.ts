import { AttributeDescriptor } from './attribute-descriptor';

/**
 * - `set`:    one set of ids per value (strings, booleans, custom codecs): equality and `in`.
 * - `score`:  one sorted set scored by the value (numbers, Dates): equality, ranges, order.
 * - `lex`:    one sorted set of `value \0\0 id` members, all scored 0 (sortable strings): equality,
 *             ranges, startsWith, order.
 * - `unique`: one hash value -> owning id.
 * - `tag`:    `@Index({ each: true })` on a JSON array: one set of ids per string element (has, hasAny, hasAll).
 * - `compound`: `@Index(['a', 'b'])` on the class: one sorted set of `a \0\0 b \0\0 id` members, all scored 0,
 *             each part in a sortable form (src/keys/compound-member.ts): equality on leading parts, a range on
 *             the next, order by the parts.
 */
export type IndexKind = 'set' | 'score' | 'lex' | 'unique' | 'tag' | 'compound';

export interface IndexDescriptor {
  readonly kind: IndexKind;
  /** The indexed attribute; for a compound index its first part. */
  readonly attribute: AttributeDescriptor;
  /** Compound only: the parts, in order (two or more). */
  readonly parts?: readonly AttributeDescriptor[];
  /** Scoped (composite) sorted index: one sorted set per value of this attribute. */
  readonly scope?: AttributeDescriptor;
  /** Unique only: values compared in lower case (the lower-cased form is kept in the internal field `#ci:<attr>`). */
  readonly caseInsensitive: boolean;
}

/** The name a compound index goes by in its key and stored definition: its parts' fields joined by ','. */
export function compoundName(parts: readonly AttributeDescriptor[]): string {
  return parts.map((part) => part.field).join(',');
}

/** The field an index's entries are keyed by: the attribute's, or a compound index's name. */
export function indexField(index: IndexDescriptor): string {
  return index.parts ? compoundName(index.parts) : index.attribute.field;
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

/**
 * Whether some index has entries that the scripts' precomputed forms (client-side entries of a plain create,
 * the bound removal SPEC) do not cover: a tag index (an entry per element) or a compound one (a member built
 * from several fields). Such models are written and removed through the general scripts, which compute every
 * entry from the stored values (indexes.lua's eachEntry).
 */
export function hasComposedEntries(indexes: readonly IndexDescriptor[]): boolean {
  return indexes.some((index) => index.kind === 'tag' || index.kind === 'compound');
}
