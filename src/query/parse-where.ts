import { encodeChecked } from '../codecs/codec';
import { asError } from '../errors/as-error';
import { describeValue } from '../util/describe-value';
import { QueryError } from '../errors/errors';
import { isPlainObject } from '../util/plain-object';
import { isTagCondition, parseTagCondition, TagCondition } from './tag-condition';
import { AttributeDescriptor } from '../model/attribute-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import {
  LexRange,
  lexLowerGt,
  lexLowerGte,
  lexUpperLt,
  lexUpperLte,
  lexUpperPrefix,
  ScoreRange,
  tighterLexMax,
  tighterLexMin,
  tighterMax,
  tighterMin,
} from './bounds';

/** The conditions on one attribute, with values already in their stored form. */
export interface AttributeCondition {
  readonly attribute: AttributeDescriptor;
  /** Equality (one value) or `in` (any of them); undefined: no such condition. */
  equals?: string[];
  score?: ScoreRange;
  lex?: LexRange;
  /** `has`, `hasAny`, `hasAll` on an array attribute with a tag index (tag-condition.ts). */
  tags?: TagCondition;
  /** `not` and `notIn`: the values (stored form) the attribute must not hold; an absent value matches. */
  notEquals?: string[];
  /** `exists`: true for objects with a value (a tag attribute: with an element), false for those without. */
  exists?: boolean;
}

/** One AND level of a where: conditions per attribute, and the OR alternatives. */
export interface ParsedWhere {
  readonly conditions: AttributeCondition[];
  readonly or?: readonly unknown[];
}

const OPERATORS = new Set(['in', 'gt', 'gte', 'lt', 'lte', 'startsWith', 'not', 'notIn', 'exists']);

/**
 * One AND level of a where. Only a where that is undefined as a whole means "no condition": null, like any value
 * that is not a plain object, is refused (a where that came out null by mistake would otherwise match every
 * object). So is a condition or an operator whose value is undefined (`{ userId: user.id }` with an id not set):
 * read as "no condition" it would match everything (TypeORM's trap); leaving the key out is how to say that.
 */
export function parseWhere(model: ModelDescriptor, where: unknown): ParsedWhere {
  if (where === undefined) return { conditions: [] };
  if (!isPlainObject(where)) throw new QueryError(`${model.name}: a where must be an object, got ${describeValue(where)}`);
  const symbol = symbolKeyOf(where);
  if (symbol) throw new QueryError(`${model.name} has no attribute ${String(symbol)}`);
  const conditions: AttributeCondition[] = [];
  let or: unknown[] | undefined;
  for (const key of Object.keys(where)) {
    const raw = where[key];
    if (key === 'OR') {
      if (raw === undefined) throw undefinedCondition(model.name, 'OR');
      if (!Array.isArray(raw) || raw.length === 0 || !everyPlainObject(raw)) {
        throw new QueryError(`${model.name}: OR takes a non-empty array of wheres (objects)`);
      }
      or = raw;
      continue;
    }
    const attribute = model.attribute(key);
    if (!attribute) throw new QueryError(`${model.name} has no attribute ${key}`);
    if (raw === undefined) throw undefinedCondition(model.name, key);
    conditions.push(parseCondition(model, attribute, raw));
  }
  return { conditions, or };
}

function parseCondition(model: ModelDescriptor, attribute: AttributeDescriptor, raw: unknown): AttributeCondition {
  const name = `${model.name}.${attribute.property}`;
  const condition: AttributeCondition = { attribute };
  if (raw === null) throw new QueryError(`${name}: null is not a queryable value; { exists: false } matches the objects without one`);
  if (attribute.type === 'json' && isPlainObject(raw) && isTagCondition(raw))
    return { attribute, ...parseTagCondition(model, attribute, raw) };
  // before an object value is read as operators: { meta: { a: 1 } } is a JSON value, not an operator a
  if (attribute.type === 'json') throw new QueryError(`${name}: JSON attributes cannot be indexed or queried`);
  if (!isPlainObject(raw)) {
    condition.equals = [encode(name, attribute, raw)];
    return condition;
  }
  const symbol = symbolKeyOf(raw);
  if (symbol) throw new QueryError(`${name}: unknown operator ${String(symbol)}`);
  for (const operator of Object.keys(raw)) {
    if (!OPERATORS.has(operator)) {
      // a custom codec's value may itself be a plain object ({ x, y }): it is compared with in, never read as one
      const hint = attribute.type === 'custom' ? ' (a value that is a plain object is compared with { in: [value] })' : '';
      throw new QueryError(`${name}: unknown operator ${operator}${hint}`);
    }
    const value = raw[operator];
    if (value === undefined) throw undefinedCondition(model.name, `${attribute.property}.${operator}`);
    if (operator === 'in') {
      condition.equals = encodeList(name, attribute, 'in', value);
    } else if (operator === 'notIn' || operator === 'not') {
      if (value === null)
        throw new QueryError(`${name}: ${operator} takes a value, not null; { exists: true } matches the objects with one`);
      const values = operator === 'not' ? [encode(name, attribute, value)] : encodeList(name, attribute, 'notIn', value);
      condition.notEquals = [...new Set([...(condition.notEquals ?? []), ...values])];
    } else if (operator === 'exists') {
      if (typeof value !== 'boolean') throw new QueryError(`${name}: exists takes true or false, got ${describeValue(value)}`);
      condition.exists = value;
    } else if (attribute.type === 'number' || attribute.type === 'date') {
      if (operator === 'startsWith') throw new QueryError(`${name}: startsWith applies to sortable strings`);
      const bound = { value: Number(encode(name, attribute, value)), inclusive: operator.endsWith('e') };
      const range = (condition.score ??= {});
      if (operator.startsWith('g')) range.min = tighterMin(range.min, bound);
      else range.max = tighterMax(range.max, bound);
    } else if (attribute.type === 'string') {
      const text = encode(name, attribute, value);
      const range = (condition.lex ??= {});
      if (operator === 'gte') range.min = tighterLexMin(range.min, lexLowerGte(text));
      else if (operator === 'gt') range.min = tighterLexMin(range.min, lexLowerGt(text));
      else if (operator === 'lt') range.max = tighterLexMax(range.max, lexUpperLt(text));
      else if (operator === 'lte') range.max = tighterLexMax(range.max, lexUpperLte(text));
      else {
        range.min = tighterLexMin(range.min, lexLowerGte(text));
        range.max = tighterLexMax(range.max, lexUpperPrefix(text));
      }
    } else {
      throw new QueryError(
        `${name}: ${operator} applies to ${operator === 'startsWith' ? 'sortable strings' : 'numbers, Dates and sortable strings'}`,
      );
    }
  }
  // an equality or a range matches present values only: `exists: true` beside one says nothing more, and left out
  // it does not keep a compound index from answering the range
  if (condition.exists === true && (condition.equals || condition.score || condition.lex)) delete condition.exists;
  return condition;
}

/** The distinct stored forms of an `in` or `notIn` list. */
function encodeList(name: string, attribute: AttributeDescriptor, operator: string, value: unknown): string[] {
  if (!Array.isArray(value)) throw new QueryError(`${name}: ${operator} takes an array`);
  const values = new Set<string>();
  // by position: map() would skip the holes of a sparse array, and an absent value is not queryable
  for (let i = 0; i < value.length; i++) {
    if (!(i in value)) {
      throw new QueryError(`${name}: ${operator} has a hole at index ${i} (a sparse array); absent values are not indexed`);
    }
    values.add(encode(name, attribute, value[i]));
  }
  return [...values];
}

/** The QueryError of a condition (or operator) given as undefined: omitting the key is how to leave it out. */
function undefinedCondition(model: string, condition: string): QueryError {
  return new QueryError(
    `${model}.${condition} is undefined in a where; omit the key to leave it unconstrained (an undefined value would match every object)`,
  );
}

function encode(name: string, attribute: AttributeDescriptor, value: unknown): string {
  try {
    return attribute.type === 'custom' ? encodeChecked(attribute.codec, value) : attribute.codec.encode(value);
  } catch (error) {
    throw new QueryError(`${name}: cannot compare with ${describeValue(value)}: ${asError(error).message}`);
  }
}

/**
 * The first enumerable symbol key of a where or of an attribute's operators, which Object.keys leaves out: no
 * attribute or operator is named by a symbol, and the condition would otherwise be dropped without a word
 * (`{ [Symbol('x')]: 1 }` matching every object).
 */
function symbolKeyOf(object: object): symbol | undefined {
  for (const key of Object.getOwnPropertySymbols(object)) if (Object.prototype.propertyIsEnumerable.call(object, key)) return key;
  return undefined;
}

/** Whether every element, holes of a sparse array included, is a plain object (an OR's alternatives). */
function everyPlainObject(values: readonly unknown[]): boolean {
  for (let i = 0; i < values.length; i++) if (!isPlainObject(values[i])) return false;
  return true;
}
