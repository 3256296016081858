import { lexMemberBytes } from '../keys/lex-member';
import { ModelKeys } from '../keys/model-keys';
import { IndexDescriptor } from '../metadata/index-descriptor';
import { EncodedFields } from './encoded-fields';

/**
 * The set and sorted-set entries of new objects, gathered per index key so that each key takes one SADD or ZADD
 * for a whole chunk. They are computed from the fields written, exactly as indexes.lua's entryOf computes them
 * from the stored values: a new object's hash holds exactly those fields (and `#id`). A sorted entry's score is
 * the stored string itself ('inf' when absent), as the scripts pass it. Unique indexes are not handled here (a
 * unique value needs a check before the write: save-many.lua does those models).
 */
export class NewObjectEntries {
  /** index key -> 'S' and the ids of a set, or 'Z' and the score, member pairs of a sorted set */
  readonly byKey = new Map<string, { kind: 'S' | 'Z'; args: Array<string | Buffer> }>();

  constructor(
    private readonly keys: ModelKeys,
    private readonly indexes: readonly IndexDescriptor[],
  ) {}

  add(id: string, fields: EncodedFields): void {
    for (const index of this.indexes) {
      const value = fields.get(index.attribute.field);
      if (index.kind === 'set') {
        if (value !== undefined) this.push('S', this.keys.valueSet(index.attribute.field, value), id);
        continue;
      }
      if (index.kind === 'unique') throw new Error(`${index.attribute.field}: unique entries need save-many.lua`);
      const key = this.sortedKey(index, fields);
      if (key === undefined) continue; // no scope value: in no scoped index
      if (index.kind === 'score') this.push('Z', key, value ?? 'inf', id);
      else this.push('Z', key, '0', lexMemberBytes(value, id));
    }
  }

  private push(kind: 'S' | 'Z', key: string, ...args: Array<string | Buffer>): void {
    const entry = this.byKey.get(key);
    if (entry) entry.args.push(...args);
    else this.byKey.set(key, { kind, args });
  }

  private sortedKey(index: IndexDescriptor, fields: EncodedFields): string | undefined {
    const kind = index.kind === 'lex' ? 'lex' : 'score';
    const scope = index.scope;
    if (scope === undefined) return this.keys.sorted(kind, index.attribute.field);
    const scopeValue = fields.get(scope.field);
    if (scopeValue === undefined) return undefined;
    // as an index value, the number -0 is 0 (its stored form keeps '-0' so that it round-trips)
    const value = scope.type === 'number' && scopeValue === '-0' ? '0' : scopeValue;
    return this.keys.sorted(kind, index.attribute.field, { field: scope.field, value });
  }
}
