import { compoundPart, compoundPrefix } from '../keys/compound-member';
import { ModelKeys } from '../keys/model-keys';
import { AttributeDescriptor } from '../model/attribute-descriptor';
import { IndexDescriptor } from '../model/index-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import { ScriptArg } from '../store/query-plan';
import { ScoreBound } from './bounds';
import { AttributeCondition } from './parse-where';

const ZERO_ONE = Buffer.from([0, 1]);
const ABSENT = Buffer.from([0xff]);

/** What a compound index answers of one AND level: equalities on its first `pinned` parts, maybe a range on the next. */
export interface CompoundMatch {
  readonly index: IndexDescriptor;
  readonly key: string;
  /** How many leading parts an equality pins. */
  readonly pinned: number;
  /** The conditions the window answers whole. */
  readonly used: ReadonlySet<AttributeCondition>;
  readonly min: Buffer | string;
  readonly max: Buffer | string;
}

const isNumeric = (attribute: AttributeDescriptor) => attribute.type !== 'string';

/** A condition a window can answer whole: no `not`, `exists` or tag operator beside its equality or range. */
const windowable = (condition: AttributeCondition) => !condition.tags && !condition.notEquals && condition.exists === undefined;

function scoreBody(bound: ScoreBound, lower: boolean): Buffer {
  const digits = compoundPart(String(bound.value), true);
  // a lower bound that excludes its value starts past every member holding it, an upper one that includes it too
  return lower === bound.inclusive ? digits : Buffer.concat([digits, ZERO_ONE]);
}

/**
 * The window of compound `index` for the conditions of one AND level: the leading parts pinned by a single
 * equality each, then an optional range on the next part; undefined when not even the first part is pinned or
 * ranged. Members holding no value for the ranged part (\xFF) are outside every range.
 */
export function compoundWindow(
  keys: ModelKeys,
  index: IndexDescriptor,
  conditions: readonly AttributeCondition[],
): CompoundMatch | undefined {
  const parts = index.parts!;
  const of = (attribute: AttributeDescriptor) => conditions.find((condition) => condition.attribute === attribute);
  const pinnedParts: Buffer[] = [];
  const used = new Set<AttributeCondition>();
  for (const part of parts) {
    const condition = of(part);
    if (!condition?.equals || condition.equals.length !== 1 || condition.score || condition.lex || !windowable(condition)) break;
    pinnedParts.push(compoundPart(condition.equals[0], isNumeric(part)));
    used.add(condition);
  }
  const prefix = compoundPrefix(pinnedParts);
  const next = parts[pinnedParts.length] as AttributeDescriptor | undefined;
  const ranged = next && of(next);
  const key = keys.sorted('lex', index.attribute.field);
  const at = (body: Buffer, open: '[' | '(') => Buffer.concat([Buffer.from(open), prefix, body]);
  if (ranged && !ranged.equals && windowable(ranged) && (ranged.score || ranged.lex)) {
    used.add(ranged);
    let min: Buffer;
    let max: Buffer;
    if (ranged.score) {
      min = ranged.score.min ? scoreBody(ranged.score.min, true) : Buffer.alloc(0);
      max = ranged.score.max ? scoreBody(ranged.score.max, false) : ABSENT;
    } else {
      min = ranged.lex!.min ?? Buffer.alloc(0);
      max = ranged.lex!.max ?? ABSENT;
    }
    return { index, key, pinned: pinnedParts.length, used, min: at(min, '['), max: at(max, '(') };
  }
  if (pinnedParts.length === 0) return undefined;
  // every member starting with the prefix: it ends with \0\0, and \0\1 is the next byte string up
  const end = Buffer.from(prefix);
  end[end.length - 1] = 1;
  return {
    index,
    key,
    pinned: pinnedParts.length,
    used,
    min: Buffer.concat([Buffer.from('['), prefix]),
    max: Buffer.concat([Buffer.from('('), end]),
  };
}

/**
 * The compound index that answers the most conditions of one AND level (two or more, or any that no index of
 * their own answers), as one lex window: an `L` instruction of query.lua and the conditions it answers.
 */
export function compoundSource(
  model: ModelDescriptor,
  keys: ModelKeys,
  conditions: readonly AttributeCondition[],
): { program: ScriptArg[]; used: ReadonlySet<AttributeCondition> } | undefined {
  let best: CompoundMatch | undefined;
  for (const index of model.indexes) {
    if (index.kind !== 'compound') continue;
    const match = compoundWindow(keys, index, conditions);
    if (!match) continue;
    const needed = match.used.size >= 2 || [...match.used].some((condition) => !hasOwnIndex(model, condition));
    if (needed && (!best || match.used.size > best.used.size)) best = match;
  }
  return best && { program: ['L', best.key, best.min, best.max], used: best.used };
}

function hasOwnIndex(model: ModelDescriptor, condition: AttributeCondition): boolean {
  const kinds = condition.score ? ['score'] : condition.lex ? ['lex'] : ['set', 'unique', 'score', 'lex'];
  return model.indexes.some((index) => index.attribute === condition.attribute && !index.scope && kinds.includes(index.kind));
}
