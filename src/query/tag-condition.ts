import { QueryError } from '../errors/errors';
import { ModelKeys } from '../keys/model-keys';
import { AttributeDescriptor } from '../model/attribute-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import { ScriptArg } from '../store/query-plan';
import { describeValue } from '../util/describe-value';

/** The operators of a tag (`@Index({ each: true })`) attribute in a where. */
const TAG_OPERATORS = new Set(['has', 'hasAny', 'hasAll', 'exists']);

/**
 * A condition on the elements of an array attribute: every element of `all` is in the array, and for each list
 * of `any`, at least one of its elements is.
 */
export interface TagCondition {
  readonly all: string[];
  readonly any: string[][];
}

/** Whether `raw` is a condition object of tag operators only (`{ has: 'x' }`, `{ hasAny: [...] }`, `exists`...). */
export function isTagCondition(raw: object): boolean {
  const names = Object.keys(raw);
  return names.length > 0 && names.every((name) => TAG_OPERATORS.has(name));
}

/**
 * Reads `{ has, hasAny, hasAll, exists }` of the attribute; elements are strings. `exists` says whether the array
 * holds an element (the tag index keeps the objects without one in its `nil` set).
 */
export function parseTagCondition(
  model: ModelDescriptor,
  attribute: AttributeDescriptor,
  raw: Record<string, unknown>,
): { tags?: TagCondition; exists?: boolean } {
  const name = `${model.name}.${attribute.property}`;
  const element = (value: unknown, operator: string): string => {
    if (typeof value !== 'string') throw new QueryError(`${name}: ${operator} takes strings, got ${describeValue(value)}`);
    return value;
  };
  const list = (value: unknown, operator: string): string[] => {
    if (!Array.isArray(value)) throw new QueryError(`${name}: ${operator} takes an array of strings`);
    const out: string[] = [];
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) throw new QueryError(`${name}: ${operator} has a hole at index ${i} (a sparse array)`);
      out.push(element(value[i], operator));
    }
    return [...new Set(out)];
  };
  const tags: TagCondition = { all: [], any: [] };
  const condition: { tags?: TagCondition; exists?: boolean } = {};
  for (const [operator, value] of Object.entries(raw)) {
    if (value === undefined) {
      throw new QueryError(`${name}.${operator} is undefined in a where; omit the key to leave it unconstrained`);
    }
    if (operator === 'exists') {
      if (typeof value !== 'boolean') throw new QueryError(`${name}: exists takes true or false, got ${describeValue(value)}`);
      condition.exists = value;
    } else if (operator === 'has') tags.all.push(element(value, operator));
    else if (operator === 'hasAll') tags.all.push(...list(value, operator));
    else tags.any.push(list(value, operator));
  }
  if (tags.all.length > 0 || tags.any.length > 0 || condition.exists === undefined) condition.tags = tags;
  return condition;
}

/**
 * The query.lua instructions of a tag condition: the set of each required element, intersected, and the union
 * of each `hasAny` list (an empty list matches nothing); null when it constrains nothing (`hasAll: []`).
 */
export function tagSource(
  model: ModelDescriptor,
  keys: ModelKeys,
  attribute: AttributeDescriptor,
  condition: TagCondition,
): ScriptArg[] | null {
  const field = attribute.field;
  if (!model.indexes.some((index) => index.kind === 'tag' && index.attribute === attribute)) {
    throw new QueryError(`${model.name}.${field}: has, hasAny and hasAll need @Index({ each: true }) on ${field}`);
  }
  const parts: ScriptArg[][] = [...new Set(condition.all)].map((value) => ['S', keys.valueSet(field, value)]);
  for (const any of condition.any) {
    if (any.length === 0) parts.push(['0']);
    else if (any.length === 1) parts.push(['S', keys.valueSet(field, any[0])]);
    else parts.push([...any.flatMap((value) => ['S', keys.valueSet(field, value)]), '|', String(any.length)]);
  }
  if (parts.length === 0) return null;
  if (parts.length === 1) return parts[0];
  return [...parts.flat(), '&', String(parts.length)];
}
