import { QueryError } from '../errors/errors';
import { ModelKeys } from '../keys/model-keys';
import { AttributeDescriptor } from '../model/attribute-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import { ScriptArg } from '../store/query-plan';
import { indexesOf, Pins, scopedIndexHint, sortedKey, usableSortedIndex } from './index-lookup';

/** Lex members of absent values start with this byte, after every UTF-8 string (src/store/lua/lib/indexes.lua). */
const ABSENT_LEX = Buffer.from([0xff]);

/**
 * query.lua instructions for the objects with a value of the attribute (`present`) or without one, read from an
 * index, never by reading objects. `subtract` says the program gives the other side, to be taken away from the
 * rest of the where (or from `all`):
 *   - a set index keeps the ids without a value in its `nil` set (a tag index: without an element): absent is
 *     that set, present is all but it;
 *   - an unscoped sorted index (or one scoped by a pinned attribute) holds every object, an absent value scored
 *     +inf (lex: after every string): a window of it answers either side;
 *   - a unique index alone holds the present values' owners (their ids, read with HVALS: O(values)).
 */
export function presenceSource(
  model: ModelDescriptor,
  keys: ModelKeys,
  attribute: AttributeDescriptor,
  pins: Pins,
  present: boolean,
): { program: ScriptArg[]; subtract: boolean } {
  const field = attribute.field;
  const own = indexesOf(model, field);
  // a tag index keeps the objects whose array holds no element in its `nil` set
  if (own.some((index) => index.kind === 'set' || index.kind === 'tag')) return { program: ['S', keys.absent(field)], subtract: present };
  const score = usableSortedIndex(model, field, 'score', pins);
  if (score) {
    const key = sortedKey(keys, score);
    return { program: present ? ['Z', key, '-inf', '(inf'] : ['Z', key, 'inf', '+inf'], subtract: false };
  }
  const lex = usableSortedIndex(model, field, 'lex', pins);
  if (lex) {
    const key = sortedKey(keys, lex);
    const absentFrom = Buffer.concat([Buffer.from('['), ABSENT_LEX]);
    const presentTo = Buffer.concat([Buffer.from('('), ABSENT_LEX]);
    return { program: present ? ['L', key, '-', presentTo] : ['L', key, absentFrom, '+'], subtract: false };
  }
  if (own.some((index) => index.kind === 'unique')) return { program: ['V', keys.unique(field)], subtract: !present };
  const scoped = own.find((index) => index.scope);
  if (scoped) throw new QueryError(scopedIndexHint(model, field, scoped.scope!.field));
  return missing(model, attribute);
}

function missing(model: ModelDescriptor, attribute: AttributeDescriptor): never {
  const field = attribute.field;
  if (attribute.type === 'json')
    throw new QueryError(`${model.name}.${field}: exists on a JSON array needs @Index({ each: true }) on ${field}`);
  throw new QueryError(`${model.name}.${field}: exists needs @Index() (or @Unique()) on ${field}`);
}
