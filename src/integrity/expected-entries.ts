import { caseFoldField, compositeValue, foldCase, partsOfName } from '../model/index-descriptor';
import { StoredIndex } from '../schema/stored-definition';
import { isNumeric, isNumericPart, ModelScope } from './model-scope';
import { lexMemberBytes } from '../keys/lex-member';
import { numberCodec } from '../codecs/number-codec';
import { compoundMember, compoundPart } from '../keys/compound-member';

/**
 * The index entries an object must have, computed from its stored values exactly as src/store/lua/indexes.lua
 * computes them (entryOf): the checker compares what is stored with these. Members are binary (lex members hold
 * \0 and \xFF bytes) and compared as latin1 strings (one char per byte).
 */
export interface ExpectedEntry {
  readonly index: StoredIndex;
  /** 'S' set, 'Z' sorted set (score and lex), 'U' unique hash: the memo's entry kinds. */
  readonly kind: 'S' | 'Z' | 'U';
  readonly key: string;
  /** The member (set, sorted set) or the unique value (unique hash), as latin1. */
  readonly member: string;
  /** Sorted sets: the score the member must have; NaN when the stored value is no score (isScoreText). */
  readonly score?: number;
}

/** A string's UTF-8 bytes as a latin1 string (how members are compared). */
export function bytes(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** The member a lex index holds for (value, id), as latin1 (src/keys/lex-member.ts). */
export function lexMember(value: string | undefined, id: string): string {
  return lexMemberBytes(value, id).toString('latin1');
}

/**
 * Whether an entry a memo records (`field`: its kind and key; `member` as latin1) can be an entry of object `id`
 * of the model whose key base is `base`, as src/store/lua/indexes.lua's isOwnEntry decides: a key of an index
 * kind the model can have under its base (S `<base>:idx:` or `<base>:nil:`, Z `<base>:idx:` or `<base>:lex:`, U `<base>:uniq:`)
 * and the object's member (the id; for a lex key, a member ending with the id). The scripts act on no other.
 */
export function isOwnMemoEntry(base: string, field: string, member: string, id: string): boolean {
  const kind = field.charAt(0);
  const key = field.slice(1);
  if (!key.startsWith(base)) return false;
  const stem = key.slice(base.length);
  if (kind === 'S') return (stem.startsWith(':idx:') || stem.startsWith(':nil:')) && member === id;
  if (kind === 'Z') {
    if (stem.startsWith(':idx:')) return member === id;
    const tail = `\0\0${String.fromCharCode(id.length)}${id}`;
    return stem.startsWith(':lex:') && id.length < 256 && member.length > tail.length - 1 && member.endsWith(tail);
  }
  return kind === 'U' && stem.startsWith(':uniq:');
}

/** The id a lex member names (after the first \0\0: one length byte, then the id), or undefined. */
export function idOfLexMember(member: string): string | undefined {
  const at = member.indexOf('\0\0');
  if (at < 0) return undefined;
  const length = member.charCodeAt(at + 2);
  const id = member.slice(at + 3);
  return id.length === length ? id : undefined;
}

/**
 * Whether a score index can hold `text` (isScoreText in src/store/lua/numbers.lua): a number as the number
 * codec stores it, finite, that ZADD reads other than by underflow ('1e-400' reads as 0, which ZADD refuses).
 */
function isScoreText(text: string): boolean {
  try {
    numberCodec.decode(text);
  } catch {
    return false;
  }
  return Number(text) !== 0 || !/[1-9]/.test(text.split('e')[0]);
}

/**
 * `values` (an object's stored fields) with the `#ci:` field of each case-insensitive unique attribute as a save
 * of the object writes it: its stored value folded (foldCase), absent when the attribute is. The checker judges
 * unique ownership from these, never from the stored `#ci:` field, which may be out of step with the value
 * (edited by hand): a mapping of the folded form the field holds is stale once the value changed, and the value
 * an object holds is owned by it whatever its field says.
 */
export function withFolds(scope: ModelScope, values: ReadonlyMap<string, string>): Map<string, string> {
  const folded = new Map(values);
  for (const index of scope.definition.indexes) {
    if (index.kind !== 'unique' || !index.caseInsensitive) continue;
    const value = values.get(index.attribute);
    if (value === undefined) folded.delete(caseFoldField(index.attribute));
    else folded.set(caseFoldField(index.attribute), foldCase(value));
  }
  return folded;
}

const canonical = (value: string, numeric: boolean) => (numeric && value === '-0' ? '0' : value);

/** The key of a sorted index for these values; undefined when the scope value is absent. */
function sortedKey(scope: ModelScope, index: StoredIndex, values: ReadonlyMap<string, string>): string | undefined {
  const key = `${scope.keys.base}:${index.kind === 'lex' ? 'lex' : 'idx'}:${index.attribute}`;
  if (index.scope === null) return key;
  const scopeValue = values.get(index.scope);
  if (scopeValue === undefined) return undefined;
  return `${key}@${index.scope}:${canonical(scopeValue, isNumeric(scope.definition, index.scope))}`;
}

/** The entry of object `id` for `index`, or undefined when it has none. */
export function entryOf(scope: ModelScope, index: StoredIndex, values: ReadonlyMap<string, string>, id: string): ExpectedEntry | undefined {
  const base = scope.keys.base;
  const value = values.get(index.attribute);
  if (index.kind === 'set') {
    const key = value === undefined ? `${base}:nil:${index.attribute}` : `${base}:idx:${index.attribute}:${value}`;
    return { index, kind: 'S', key, member: bytes(id) };
  }
  const parts = index.kind === 'unique' ? partsOfName(index.attribute) : undefined;
  if (parts) {
    const numeric = parts.map((field) => ({ field, numeric: isNumeric(scope.definition, field) }));
    const held = compositeValue(numeric, (field) => values.get(field));
    return held === undefined ? undefined : { index, kind: 'U', key: `${base}:uniq:${index.attribute}`, member: bytes(held) };
  }
  if (index.kind === 'unique') {
    const held = index.caseInsensitive
      ? values.get(`#ci:${index.attribute}`)
      : value && canonical(value, isNumeric(scope.definition, index.attribute));
    return held === undefined ? undefined : { index, kind: 'U', key: `${base}:uniq:${index.attribute}`, member: bytes(held) };
  }
  const key = sortedKey(scope, index, values);
  if (key === undefined) return undefined;
  if (index.kind === 'score')
    return { index, kind: 'Z', key, member: bytes(id), score: value === undefined ? Infinity : isScoreText(value) ? Number(value) : NaN };
  return { index, kind: 'Z', key, member: lexMember(value, id), score: 0 };
}

/** The hash fields an index's entries are computed from: its attribute (or the parts of one over several) and scope. */
export function indexFields(index: StoredIndex): string[] {
  const fields = partsOfName(index.attribute) ?? [index.attribute];
  return index.scope === null ? fields : [...fields, index.scope];
}

/** The distinct string elements of a tag attribute's stored JSON array (indexes.lua's tagElements). */
function tagElements(stored: string | undefined): string[] {
  if (stored === undefined) return [];
  let decoded: unknown;
  try {
    decoded = JSON.parse(stored);
  } catch {
    return [];
  }
  if (!Array.isArray(decoded)) return [];
  return [...new Set(decoded.filter((element): element is string => typeof element === 'string'))];
}

/**
 * The entries of object `id` for `index`: entryOf's one (or none), a tag index's set entry per element, a
 * compound index's member built from its parts (indexes.lua's eachEntry).
 */
export function entriesFor(scope: ModelScope, index: StoredIndex, values: ReadonlyMap<string, string>, id: string): ExpectedEntry[] {
  const base = scope.keys.base;
  if (index.kind === 'tag') {
    const elements = tagElements(values.get(index.attribute));
    // an array without an element: the `nil` set, as an absent value of a set index
    const keys = elements.length === 0 ? [`${base}:nil:${index.attribute}`] : elements.map((e) => `${base}:idx:${index.attribute}:${e}`);
    return keys.map((key) => ({ index, kind: 'S', key, member: bytes(id) }));
  }
  if (index.kind === 'compound') {
    const fields = partsOfName(index.attribute) ?? [index.attribute];
    const parts = fields.map((field) => compoundPart(values.get(field), isNumericPart(scope.definition, index, field)));
    return [{ index, kind: 'Z', key: `${base}:lex:${index.attribute}`, member: compoundMember(parts, id).toString('latin1'), score: 0 }];
  }
  const entry = entryOf(scope, index, values, id);
  return entry ? [entry] : [];
}

/** Every entry the object must have. */
export function entriesOf(scope: ModelScope, values: ReadonlyMap<string, string>, id: string): ExpectedEntry[] {
  return scope.definition.indexes.flatMap((index) => entriesFor(scope, index, values, id));
}
