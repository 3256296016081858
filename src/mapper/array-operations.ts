import { attributeFailure } from '../errors/attribute-failure';
import { ArgumentError, ValidationError } from '../errors/errors';
import { CodecError } from '../codecs/codec';
import { jsonCodec } from '../codecs/json-codec';
import { AttributeDescriptor } from '../model/attribute-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import { describeValue } from '../util/describe-value';

/** The operators Model.update applies to a stored JSON array, inside its script. */
export const ARRAY_OPERATORS = ['push', 'pull', 'addToSet'] as const;
export type ArrayOperator = (typeof ARRAY_OPERATORS)[number];

/** One operator on one JSON array attribute: its field and the JSON text of each value it takes. */
export interface ArrayOperation {
  readonly field: string;
  readonly operator: ArrayOperator;
  readonly elements: readonly string[];
}

/** The attributes of an update's input that are plain values, and those that are array operators. */
export interface SplitInput {
  readonly attributes: Record<string, unknown>;
  readonly operations: readonly ArrayOperation[];
}

const isOperator = (key: string): key is ArrayOperator => (ARRAY_OPERATORS as readonly string[]).includes(key);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype === Object.prototype || prototype === null;
}

/**
 * Takes the array operators out of Model.update's input: `{ tags: { push: 'x' } }` (or pull, addToSet; one value
 * or an array of them). An attribute's value is an operator when it is a plain object naming one of them, or any
 * plain object for an `each`-indexed attribute (whose values are arrays). Refuses, before anything is sent, an
 * operator on an attribute that is not JSON, an unknown or second operator key (ArgumentError), and values JSON
 * cannot hold or, for an `each`-indexed attribute, that are not strings (ValidationError naming the attribute).
 */
export function splitArrayOperations(model: ModelDescriptor, input: Record<string, unknown>): SplitInput {
  const attributes: Record<string, unknown> = {};
  const operations: ArrayOperation[] = [];
  for (const [property, value] of Object.entries(input)) {
    const attribute = model.attribute(property);
    const tagged = attribute !== undefined && model.indexes.some((index) => index.kind === 'tag' && index.attribute === attribute);
    if (!attribute || !isPlainObject(value) || !(tagged || Object.keys(value).some(isOperator))) {
      attributes[property] = value;
      continue;
    }
    operations.push(arrayOperation(model, attribute, tagged, value));
  }
  return { attributes, operations };
}

function arrayOperation(
  model: ModelDescriptor,
  attribute: AttributeDescriptor,
  tagged: boolean,
  given: Record<string, unknown>,
): ArrayOperation {
  const where = `${model.name}.update: ${attribute.property}`;
  if (attribute.type !== 'json') {
    throw new ArgumentError(`${where} is not a JSON array attribute: push, pull and addToSet work on @Attr({ type: 'json' }) arrays`);
  }
  const keys = Object.keys(given);
  if (keys.length !== 1 || !isOperator(keys[0]!)) {
    throw new ArgumentError(`${where} takes one of push, pull, addToSet, got ${describeValue(given)}`);
  }
  const operator = keys[0];
  const given0 = given[operator];
  const values = Array.isArray(given0) ? given0 : [given0];
  const refuse = (message: string) =>
    new ValidationError(model.name, [
      attributeFailure(given, attribute.property, given0, 'arrayOperator', `${attribute.property}: ${message}`),
    ]);
  if (tagged && values.some((value) => typeof value !== 'string')) {
    throw refuse(`${operator} takes strings for an @Index({ each: true }) attribute, got ${describeValue(given0)}`);
  }
  try {
    jsonCodec.encode(values);
  } catch (error) {
    if (!(error instanceof CodecError)) throw error;
    throw refuse(`${operator}: ${error.message}`);
  }
  return { field: attribute.field, operator, elements: values.map((value) => JSON.stringify(value)) };
}
