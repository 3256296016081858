import { indexName, keyKindOf, StoredDefinition, StoredIndex } from '../schema/stored-definition';

/** What a key under a model's base is, from its name (docs/keys.md). */
export type KeyKind =
  | { readonly kind: 'object' | 'memo' | 'lock'; readonly id: string }
  | { readonly kind: 'all' | 'exp' | 'seq' | 'tmp' | 'membership' | 'other' }
  | { readonly kind: 'index'; readonly index: StoredIndex; readonly name: string }
  | { readonly kind: 'unknownIndex'; readonly family: string };

const INDEX_KEY = /^(idx|lex|uniq|nil):([A-Za-z_$][\w$]*(?:\+[A-Za-z_$][\w$]*)*)(?:(@)([A-Za-z_$][\w$]*):.*|(:).*)?$/s;

/**
 * Classifies `rest`, a key name with `<base>:` removed. Attribute names are identifiers: no ':', '@' or '+' (a
 * composite unique's or compound index's name joins its parts' with '+').
 */
export function kindOfKey(definition: StoredDefinition, rest: string): KeyKind {
  if (rest === 'all' || rest === 'exp' || rest === 'seq') return { kind: rest };
  for (const kind of ['obj', 'memo', 'lock'] as const) {
    if (rest.startsWith(`${kind}:`)) return { kind: kind === 'obj' ? 'object' : kind, id: rest.slice(kind.length + 1) };
  }
  if (rest.startsWith('tmp:')) return { kind: 'tmp' };
  if (rest.startsWith('rel:') || rest.startsWith('rev:')) return { kind: 'membership' };
  const match = INDEX_KEY.exec(rest);
  if (!match) return { kind: 'other' };
  const [, family, attribute, at, scope, colon] = match;
  // `nil:<attr>`: the objects without a value of a set index (a tag index: without an element)
  const kind = family === 'uniq' ? 'unique' : family === 'lex' ? 'lex' : colon || family === 'nil' ? 'set' : 'score';
  const index = definition.indexes.find((i) => keyKindOf(i) === kind && i.attribute === attribute && i.scope === (at ? scope : null));
  const named = family === 'uniq' || family === 'nil';
  if (!index || (named && (at || colon)) || (family === 'lex' && colon)) return { kind: 'unknownIndex', family };
  return { kind: 'index', index, name: indexName(index) };
}
