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
  readonly attribute: AttributeDescriptor;
  /** Scoped (composite) sorted index: one sorted set per value of this attribute. */
  readonly scope?: AttributeDescriptor;
  /** Unique only: values compared in lower case (the lower-cased form is kept in the internal field `#ci:<attr>`). */
  readonly caseInsensitive: boolean;
  /**
   * A composite unique (`@Unique(['userId', 'channelId'])` on the class): the attributes whose values together are
   * unique; a compound index (`@Index(['score', 'createdAt'])`): the attributes it orders by, in order. `attribute`
   * is then no attribute of the model but the index's name, its parts' fields joined by `+` (`userId+channelId`),
   * which names its keys; undefined for every other index.
   */
  readonly parts?: readonly AttributeDescriptor[];
}

/** The attributes whose values an index holds: a composite's parts, else its one attribute. */
export function indexedAttributes(index: IndexDescriptor): readonly AttributeDescriptor[] {
  return index.parts ?? [index.attribute];
}

/** What joins the fields of a composite index's parts in its name (fields are identifiers: never one of theirs). */
export const PART_SEPARATOR = '+';

/** The parts' fields of a composite unique or compound index named `name` (`userId+channelId`); else undefined. */
export function partsOfName(name: string): string[] | undefined {
  return name.includes(PART_SEPARATOR) ? name.split(PART_SEPARATOR) : undefined;
}

/** One part of a composite unique as its value is read: the hash field, and whether it holds numbers. */
export interface CompositePart {
  readonly field: string;
  readonly numeric: boolean;
}

/**
 * The value a composite unique compares, from its parts' stored values (`stored`, by field) in order: each as a
 * unique value (a number's -0 as 0) with \0 written \0\1, joined by \0\0, as indexes.lua's compositeValue
 * writes it. Undefined when a part is absent: an object with any part absent claims nothing, as SQL does with NULL.
 */
export function compositeValue(parts: readonly CompositePart[], stored: (field: string) => string | undefined): string | undefined {
  const values: string[] = [];
  for (const part of parts) {
    const value = stored(part.field);
    if (value === undefined) return undefined;
    values.push((part.numeric && value === '-0' ? '0' : value).replace(/\0/g, '\0\x01'));
  }
  return values.join('\0\0');
}

/** The parts of a composite unique index as compositeValue reads them. */
export function compositeParts(index: IndexDescriptor): CompositePart[] {
  return (index.parts ?? []).map((part) => ({ field: part.field, numeric: part.type === 'number' }));
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
 * the bound removal SPEC, which names one field per entry) do not cover: a tag index (an entry per element), a
 * compound index or composite unique (an entry made of several fields). Such models are written and removed
 * through the general scripts, which compute every entry from the stored values (indexes.lua's eachEntry).
 */
export function hasComposedEntries(indexes: readonly IndexDescriptor[]): boolean {
  return indexes.some((index) => index.kind === 'tag' || index.parts !== undefined);
}
