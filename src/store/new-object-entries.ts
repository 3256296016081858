import { lexMemberPrefix, withLexId } from '../keys/lex-member';
import { ModelKeys } from '../keys/model-keys';
import { hasComposedEntries, IndexDescriptor } from '../model/index-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import { FieldLookup } from '../mapper/encoded-fields';

/**
 * Whether new objects of the model can be written with entries computed here, without a check before the write:
 * sequence ids of one sequence, no unique value, no memo or cap, and objects that cannot expire (a create of an
 * expirable model sweeps, which save.lua does). (Foreign keys are the caller's to rule
 * out: a value written to one must name a live parent.)
 */
export function createsWithoutChecks(model: ModelDescriptor): boolean {
  return (
    model.idStrategy === 'sequence' &&
    model.shards === 1 &&
    !model.keepsMemo &&
    !model.expirable &&
    model.cap === undefined &&
    !hasComposedEntries(model.indexes) &&
    model.indexes.every((index) => index.kind !== 'unique')
  );
}

/**
 * One index entry of a new object, all but its id: a set entry (member: the id), a sorted entry (`arg` the
 * score: the stored string itself, 'inf' when absent, as the scripts pass it) or a lex entry (score 0, member
 * `arg` followed by len(id) and the id). Computed from the fields written, exactly as indexes.lua's entryOf
 * computes entries from stored values: a new object's hash holds exactly those fields (and `#id`). Unique
 * indexes have no template (a unique value needs a check before the write: save.lua and save-many.lua do
 * those models).
 */
export interface EntryTemplate {
  readonly kind: 'S' | 'Z' | 'L';
  readonly key: string;
  readonly arg?: string | Buffer;
}

export function entryTemplates(keys: ModelKeys, indexes: readonly IndexDescriptor[], fields: FieldLookup): EntryTemplate[] {
  const templates: EntryTemplate[] = [];
  for (const index of indexes) {
    const value = fields.get(index.attribute.field);
    if (index.kind === 'set') {
      const field = index.attribute.field;
      templates.push({ kind: 'S', key: value === undefined ? keys.absent(field) : keys.valueSet(field, value) });
      continue;
    }
    if (index.kind === 'unique') throw new Error(`${index.attribute.field}: unique entries need a check before the write`);
    const key = sortedKey(keys, index, fields);
    if (key === undefined) continue; // no scope value: in no scoped index
    if (index.kind === 'score') templates.push({ kind: 'Z', key, arg: value ?? 'inf' });
    else templates.push({ kind: 'L', key, arg: lexMemberPrefix(value) });
  }
  return templates;
}

function sortedKey(keys: ModelKeys, index: IndexDescriptor, fields: FieldLookup): string | undefined {
  const kind = index.kind === 'lex' ? 'lex' : 'score';
  const scope = index.scope;
  if (scope === undefined) return keys.sorted(kind, index.attribute.field);
  const scopeValue = fields.get(scope.field);
  if (scopeValue === undefined) return undefined;
  // as an index value, the number -0 is 0 (its stored form keeps '-0' so that it round-trips)
  const value = scope.type === 'number' && scopeValue === '-0' ? '0' : scopeValue;
  return keys.sorted(kind, index.attribute.field, { field: scope.field, value });
}

/**
 * The set and sorted-set entries of many new objects, gathered per index key so that each key takes one SADD
 * or ZADD for a whole chunk. The entries are entryTemplates', with the key of an unscoped set or score index
 * found without building it again per object (a bulk create's hottest loop).
 */
export class NewObjectEntries {
  /** index key -> 'S' and the ids of a set, or 'Z' and the score, member pairs of a sorted set */
  readonly byKey = new Map<string, { kind: 'S' | 'Z'; args: Array<string | Buffer> }>();
  /** Per index position: an unscoped set index's value (undefined: none) -> the arguments of its key */
  private readonly setArgs: Array<Map<string | undefined, Array<string | Buffer>> | undefined> = [];
  /** Per index position: an unscoped score index's arguments */
  private readonly scoreArgs: Array<Array<string | Buffer> | undefined> = [];

  constructor(
    private readonly keys: ModelKeys,
    private readonly indexes: readonly IndexDescriptor[],
  ) {}

  add(id: string, fields: FieldLookup): void {
    for (let at = 0; at < this.indexes.length; at++) {
      const index = this.indexes[at];
      const field = index.attribute.field;
      if (index.scope === undefined && index.kind === 'set') {
        const value = fields.get(field);
        const byValue = (this.setArgs[at] ??= new Map());
        // undefined (no value): the `nil` set
        let args = byValue.get(value);
        if (!args) {
          const key = value === undefined ? this.keys.absent(field) : this.keys.valueSet(field, value);
          byValue.set(value, (args = this.argsOf('S', key)));
        }
        args.push(id);
      } else if (index.scope === undefined && index.kind === 'score') {
        // an absent value is scored +inf
        (this.scoreArgs[at] ??= this.argsOf('Z', this.keys.sorted('score', field))).push(fields.get(field) ?? 'inf', id);
      } else {
        for (const { kind, key, arg } of entryTemplates(this.keys, [index], fields)) {
          if (kind === 'S') this.argsOf('S', key).push(id);
          else if (kind === 'Z') this.argsOf('Z', key).push(arg!, id);
          else this.argsOf('Z', key).push('0', withLexId(arg as Buffer, id));
        }
      }
    }
  }

  private argsOf(kind: 'S' | 'Z', key: string): Array<string | Buffer> {
    const entry = this.byKey.get(key);
    if (entry) return entry.args;
    const args: Array<string | Buffer> = [];
    this.byKey.set(key, { kind, args });
    return args;
  }
}
