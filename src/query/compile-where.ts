import { QueryError } from '../errors/errors';
import { ModelKeys } from '../keys/model-keys';
import { foldCase } from '../model/index-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import { lexEquals, lexWindow, scoreWindow } from './bounds';
import { AttributeCondition, parseWhere } from './parse-where';
import { ScriptArg } from '../store/query-plan';
import { indexesOf, indexValue, Pins, scopedIndexHint, scopeOf, sortedKey, usableSortedIndex } from './index-lookup';
import { presenceSource } from './presence-source';
import { tagSource } from './tag-condition';
import { compoundSource } from './compound-source';

/** How deep ORs may nest in a where (each level is a set operation inside query.lua). */
const MAX_OR_DEPTH = 32;

/**
 * Compiles a where into query.lua instructions that leave the matching ids on the stack, or null when it
 * does not constrain anything. Every condition is served by an index; one that cannot be throws QueryError
 * naming the attribute and the index it needs (there is no fallback scan).
 */
export function compileWhere(
  model: ModelDescriptor,
  keys: ModelKeys,
  where: unknown,
  outer: Pins = new Map(),
  depth = 0,
): ScriptArg[] | null {
  // a where nested deeper is a mistake (or an OR holding its own where), not a query
  if (depth > MAX_OR_DEPTH) throw new QueryError(`${model.name}: ORs nested more than ${MAX_OR_DEPTH} deep`);
  const parsed = parseWhere(model, where);
  // conditions a compound index answers together are read as one window of it (compound-source.ts)
  const compound = compoundSource(model, keys, parsed.conditions);
  if (compound) parsed.conditions.splice(0, parsed.conditions.length, ...parsed.conditions.filter((c) => !compound.used.has(c)));
  const pins = new Map(outer);
  for (const condition of parsed.conditions) {
    if (condition.equals?.length === 1) pins.set(condition.attribute.field, condition.equals[0]);
  }
  const parts: ScriptArg[][] = compound ? [compound.program] : [];
  for (const condition of parsed.conditions) {
    const tags = condition.tags && tagSource(model, keys, condition.attribute, condition.tags);
    if (tags) parts.push(tags);
  }
  const impliedScopes = new Set<string>();
  for (const condition of parsed.conditions) {
    if (condition.score || condition.lex) {
      const { program, scope } = rangeSource(model, keys, condition, pins);
      parts.push(program);
      if (scope) impliedScopes.add(scope);
    }
  }
  // An equality read from a sorted index scoped by a pinned attribute (a composite index) implies that equality
  // too, as a range does. A source that implies nothing is the only kind left out, so no implication is lost.
  const equalities = parsed.conditions
    .filter((condition) => condition.equals)
    .map((condition) => ({ condition, ...equalitySource(model, keys, condition, pins) }));
  for (const { scope } of equalities) if (scope) impliedScopes.add(scope);
  for (const { condition, program, scope } of equalities) {
    // the scoped key already holds it
    if (!scope && condition.equals!.length === 1 && impliedScopes.has(condition.attribute.field)) continue;
    parts.push(program);
  }
  if (parsed.or) {
    const branches = parsed.or.map((branch) => compileWhere(model, keys, branch, pins, depth + 1));
    if (!branches.includes(null)) parts.push([...branches.flatMap((b) => b!), '|', String(branches.length)]);
  }
  const negatives = negationSources(model, keys, parsed.conditions, pins, parts);
  const positive = parts.length === 0 ? null : parts.length === 1 ? parts[0] : [...parts.flat(), '&', String(parts.length)];
  if (negatives.length === 0) return positive;
  // the rest of the level (or every object) minus what the negations take away: ZDIFFSTORE
  return [...(positive ?? ['A']), ...negatives.flat(), '-', String(1 + negatives.length)];
}

/**
 * The programs of the ids a level's `not`, `notIn` and `exists` conditions take away; `exists` read from a
 * window of a sorted index is a positive part (pushed to `parts`) instead. `notIn: []` takes nothing away, but
 * still needs an index that could answer it.
 */
function negationSources(
  model: ModelDescriptor,
  keys: ModelKeys,
  conditions: readonly AttributeCondition[],
  pins: Pins,
  parts: ScriptArg[][],
): ScriptArg[][] {
  const negatives: ScriptArg[][] = [];
  for (const condition of conditions) {
    if (condition.notEquals) {
      const { program } = equalitySource(model, keys, { attribute: condition.attribute, equals: condition.notEquals }, pins);
      if (condition.notEquals.length > 0) negatives.push(program);
    }
    if (condition.exists !== undefined) {
      const { program, subtract } = presenceSource(model, keys, condition.attribute, pins, condition.exists);
      (subtract ? negatives : parts).push(program);
    }
  }
  return negatives;
}

function rangeSource(model: ModelDescriptor, keys: ModelKeys, condition: AttributeCondition, pins: Pins) {
  const kind = condition.score ? 'score' : 'lex';
  const field = condition.attribute.field;
  const found = usableSortedIndex(model, field, kind, pins);
  if (!found) throw missingRangeIndex(model, field, kind);
  const key = sortedKey(keys, found);
  const window = condition.score ? scoreWindow(condition.score) : lexWindow(condition.lex);
  return { program: [kind === 'score' ? 'Z' : 'L', key, window.min, window.max], scope: found.index.scope?.field };
}

function missingRangeIndex(model: ModelDescriptor, field: string, kind: 'score' | 'lex'): QueryError {
  const scoped = indexesOf(model, field).find((index) => index.kind === kind && index.scope);
  if (scoped) {
    return new QueryError(scopedIndexHint(model, field, scoped.scope!.field));
  }
  const needed = kind === 'score' ? '@Index()' : '@Index({ sortable: true })';
  return new QueryError(`${model.name}.${field}: ranges and ordering need ${needed} on ${field}`);
}

/** The instructions of an equality (or `in`), and the scope its one value is read under, if any (see equalsOne). */
function equalitySource(
  model: ModelDescriptor,
  keys: ModelKeys,
  condition: AttributeCondition,
  pins: Pins,
): { program: ScriptArg[]; scope?: string } {
  const values = condition.equals!;
  if (values.length === 0) {
    // matches nothing, but only where an index could answer it: any other `in` would be a QueryError
    equalsOne(model, keys, condition, '', pins);
    return { program: ['0'] };
  }
  if (values.length === 1) return equalsOne(model, keys, condition, values[0], pins);
  const one = values.map((value) => equalsOne(model, keys, condition, value, pins).program);
  return { program: [...one.flat(), '|', String(one.length)] };
}

/** One value's ids; `scope` names the attribute when they are read from an index scoped by its pinned value. */
function equalsOne(
  model: ModelDescriptor,
  keys: ModelKeys,
  condition: AttributeCondition,
  value: string,
  pins: Pins,
): { program: ScriptArg[]; scope?: string } {
  const field = condition.attribute.field;
  const own = indexesOf(model, field);
  const unique = own.find((index) => index.kind === 'unique');
  // equality on a case-insensitive unique attribute is case-insensitive, whatever other index it has
  const set = own.find((index) => index.kind === 'set');
  if (set && !unique?.caseInsensitive) return { program: ['S', keys.valueSet(field, value)] };
  if (unique) {
    const foldedOrExact = unique.caseInsensitive ? foldCase(value) : indexValue(condition.attribute.type, value);
    return { program: ['U', keys.unique(field), foldedOrExact] };
  }
  const score = usableSortedIndex(model, field, 'score', pins);
  if (score) return { program: ['Z', sortedKey(keys, score), value, value], scope: scopeOf(score) };
  const lex = usableSortedIndex(model, field, 'lex', pins);
  if (lex) {
    const window = lexWindow(lexEquals(value));
    return { program: ['L', sortedKey(keys, lex), window.min, window.max], scope: scopeOf(lex) };
  }
  const scopedBy = model.indexes.find((index) => index.scope?.field === field);
  if (scopedBy) {
    const key = sortedKey(keys, { index: scopedBy, scopeValue: value });
    // a score index holds ids; a lex index holds value-and-id members, from which L extracts the ids
    return { program: scopedBy.kind === 'lex' ? ['L', key, '-', '+'] : ['K', key] };
  }
  throw missingEqualityIndex(model, condition);
}

/** Why no index answers an equality, with the fix that applies to this attribute. */
function missingEqualityIndex(model: ModelDescriptor, condition: AttributeCondition): QueryError {
  const field = condition.attribute.field;
  const scoped = indexesOf(model, field).find((index) => index.scope);
  if (scoped) {
    // its only index holds one scope value's objects: the equality needs that value pinned
    return new QueryError(scopedIndexHint(model, field, scoped.scope!.field));
  }
  if (condition.attribute.type === 'json') return new QueryError(`${model.name}.${field}: JSON attributes cannot be indexed or queried`);
  return new QueryError(`${model.name}.${field}: equality needs @Index() (or @Unique()) on ${field}`);
}
