import { IndexDescriptor } from '../model/index-descriptor';
import { BoundScript, boundScript } from './bound-script';
import { Script } from './script';
import { templates } from './scripts';

/**
 * remove-indexed.lua bound to a model's indexes (its SPEC, src/store/bound-script.ts): the values that
 * depend on the model only, so that a remove sends the id alone. They are the fields whose stored values the
 * object's entries depend on (read with one HMGET), then per index five values:
 *   kind      'S' set, 'Z' sorted by value, 'L' lexicographic, 'U' unique (case-folded ones too)
 *   stem      the entry key after the model's base: ':idx:<attr>:' (+ the value) for 'S'; ':idx:<attr>' or
 *             ':lex:<attr>' for a sorted index, ':idx:<attr>@<scope>:' (+ the scope value) when scoped;
 *             ':uniq:<attr>' for 'U'
 *   value     the position of the field whose stored value the entry takes (0: none): the attribute, or the
 *             `#ci:<attr>` field of a case-folded unique index
 *   scope     the position of the scope field (0: unscoped)
 *   fold      '1' when -0 is read as 0: the value of a numeric unique index, the scope value of a numeric scope;
 *             for 'S', the stem ':nil:<attr>' of the set holding the objects without a value
 * These are the entries indexes.lua's entryOf computes (docs/keys.md), spelled out once per model so that the
 * script does no spec parsing of its own. Cached per index list (a model's list does not change).
 */
const single = new WeakMap<readonly IndexDescriptor[], BoundScript>();
const many = new WeakMap<readonly IndexDescriptor[], BoundScript>();
const memo = new WeakMap<readonly IndexDescriptor[], BoundScript>();

export function indexedRemovalScript(indexes: readonly IndexDescriptor[]): BoundScript {
  return bound(single, templates.removeIndexed(), indexes);
}

/** remove-indexed-many.lua bound to a model's indexes: removeMany's one call per chunk, with the same SPEC. */
export function indexedRemovalManyScript(indexes: readonly IndexDescriptor[]): BoundScript {
  return bound(many, templates.removeIndexedMany(), indexes);
}

/** remove-memo.lua bound to a model's indexes: remove() of a model whose objects may keep a memo, same SPEC. */
export function memoRemovalScript(indexes: readonly IndexDescriptor[]): BoundScript {
  return bound(memo, templates.removeMemo(), indexes);
}

function bound(
  cache: WeakMap<readonly IndexDescriptor[], BoundScript>,
  template: Script,
  indexes: readonly IndexDescriptor[],
): BoundScript {
  let script = cache.get(indexes);
  if (!script) cache.set(indexes, (script = boundScript(template, indexedRemovalSpec(indexes))));
  return script;
}

/** The SPEC of indexedRemovalScript. */
export function indexedRemovalSpec(indexes: readonly IndexDescriptor[]): string[] {
  const fields: string[] = [];
  const position = (field: string): string => {
    let at = fields.indexOf(field);
    if (at < 0) at = fields.push(field) - 1;
    return String(at + 1);
  };
  const entries: string[] = [];
  for (const index of indexes) {
    const attr = index.attribute.field;
    switch (index.kind) {
      case 'set':
        entries.push('S', `:idx:${attr}:`, position(attr), '0', `:nil:${attr}`);
        break;
      case 'unique':
        if (index.caseInsensitive) entries.push('U', `:uniq:${attr}`, position(`#ci:${attr}`), '0', '');
        else entries.push('U', `:uniq:${attr}`, position(attr), '0', index.attribute.type === 'number' ? '1' : '');
        break;
      case 'score':
      case 'lex': {
        const kind = index.kind === 'score' ? 'Z' : 'L';
        const stem = `:${kind === 'Z' ? 'idx' : 'lex'}:${attr}`;
        // a score entry's member is the id, whatever the value; a lex entry's member holds the value
        const value = kind === 'L' ? position(attr) : '0';
        const scope = index.scope;
        if (scope) entries.push(kind, `${stem}@${scope.field}:`, value, position(scope.field), scope.type === 'number' ? '1' : '');
        else entries.push(kind, stem, value, '0', '');
        break;
      }
    }
  }
  return [String(fields.length), ...fields, ...entries];
}
