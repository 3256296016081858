import { indexOfKeyName } from '../schema/index-key-name';
import { indexName, StoredDefinition, StoredIndex } from '../schema/stored-definition';

/** What a key under a model's base is, from its name (docs/keys.md). */
export type KeyKind =
  | { readonly kind: 'object' | 'memo' | 'lock'; readonly id: string }
  | { readonly kind: 'all' | 'exp' | 'seq' | 'tmp' | 'membership' | 'other' }
  | { readonly kind: 'index'; readonly index: StoredIndex; readonly name: string }
  | { readonly kind: 'unknownIndex'; readonly family: string };

/** Classifies `rest`, a key name with `<base>:` removed. */
export function kindOfKey(definition: StoredDefinition, rest: string): KeyKind {
  if (rest === 'all' || rest === 'exp' || rest === 'seq') return { kind: rest };
  for (const kind of ['obj', 'memo', 'lock'] as const) {
    if (rest.startsWith(`${kind}:`)) return { kind: kind === 'obj' ? 'object' : kind, id: rest.slice(kind.length + 1) };
  }
  if (rest.startsWith('tmp:')) return { kind: 'tmp' };
  if (rest.startsWith('rel:') || rest.startsWith('rev:')) return { kind: 'membership' };
  const index = indexOfKeyName(definition, rest);
  if (index === null) return { kind: 'other' };
  if (index === undefined) return { kind: 'unknownIndex', family: rest.slice(0, rest.indexOf(':')) };
  return { kind: 'index', index, name: indexName(index) };
}
