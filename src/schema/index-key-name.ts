import { keyKindOf, StoredDefinition, StoredIndex } from './stored-definition';

/** The families of index keys: `<base>:idx:...`, `lex:`, `uniq:` and `nil:` (docs/keys.md). */
const INDEX_KEY = /^(idx|lex|uniq|nil):([A-Za-z_$][\w$]*(?:\+[A-Za-z_$][\w$]*)*)(?:(@)([A-Za-z_$][\w$]*):|(:))?/;

/**
 * The declared index of `definition` that the key named `rest` (its name with `<base>:` removed) belongs to;
 * undefined for a key of an index family (`idx:`, `lex:`, `uniq:`, `nil:`) that no declared index has (a dropped
 * one), null for a key of no index family. Attribute names are identifiers: no ':', '@' or '+' (a composite
 * unique's or compound index's name joins its parts' with '+').
 */
export function indexOfKeyName(definition: StoredDefinition, rest: string): StoredIndex | undefined | null {
  const match = INDEX_KEY.exec(rest);
  if (!match) return /^(idx|lex|uniq|nil):/.test(rest) ? undefined : null;
  const [, family, attribute, at, scopeField, colon] = match;
  // a unique hash and a `nil` set (the objects without a value of a set index) are named by the attribute alone
  if ((family === 'uniq' || family === 'nil') && (at || colon || match[0].length !== rest.length)) return undefined;
  if (family === 'lex' && colon) return undefined;
  if (!at && !colon && match[0].length !== rest.length) return undefined;
  const kind = family === 'uniq' ? 'unique' : family === 'lex' ? 'lex' : colon || family === 'nil' ? 'set' : 'score';
  // a tag index's keys are named as a set index's (one per element), a compound index's as a lex index's
  return definition.indexes.find(
    (index) => keyKindOf(index) === kind && index.attribute === attribute && index.scope === (at ? scopeField : null),
  );
}
