import { describeValue } from '../util/describe-value';
import { asError } from '../errors/as-error';
import { CodecError, encodeChecked } from '../codecs/codec';
import { AttributeFailure, attributeFailure } from '../errors/attribute-failure';
import { DecodeError, ValidationError } from '../errors/errors';
import { AttributeDescriptor } from '../model/attribute-descriptor';
import { caseFoldField, foldCase } from '../model/index-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import { EncodedFields, FieldSink } from './encoded-fields';
import { decodeDynamic, encodeDynamic, readableDynamic } from './dynamic-attributes';

/**
 * Encodes every attribute of an entity. `undefined` and `null` mean absent. Values a codec refuses are
 * reported all at once as a ValidationError, in class-validator's shape, before anything is written.
 */
export function encodeAttributes(model: ModelDescriptor, entity: object): EncodedFields {
  const fields: EncodedFields = new Map();
  encodeAttributesInto(model, entity, fields);
  return fields;
}

/**
 * What an update of a stored object encodes: encodeAttributes less the @Counter and @Version attributes, whose
 * values an update neither writes nor checks (planUpdate keeps their stored ones); a value assigned to one by
 * hand, a number or not, makes no error.
 */
export function encodeUpdatedAttributes(model: ModelDescriptor, entity: object): EncodedFields {
  const fields: EncodedFields = new Map();
  encodeAttributesInto(model, entity, fields, model.updatedAttributes);
  return fields;
}

/** encodeAttributes into a given sink (a bulk create's HSET arguments: hset-args.ts). */
export function encodeAttributesInto(
  model: ModelDescriptor,
  entity: object,
  fields: FieldSink,
  attributes: readonly AttributeDescriptor[] = model.attributes,
): void {
  let errors: AttributeFailure[] | undefined;
  for (let i = 0; i < attributes.length; i++) {
    const attribute = attributes[i];
    const value = (entity as Record<string, unknown>)[attribute.property];
    if (value === undefined || value === null) continue;
    try {
      // a custom codec's encode may give anything; the built-in ones give strings Redis stores as they are
      fields.set(attribute.field, attribute.type === 'custom' ? encodeChecked(attribute.codec, value) : attribute.codec.encode(value));
    } catch (error) {
      (errors ??= []).push(codecFailure(entity, attribute.property, value, error));
    }
  }
  if (model.dynamicProperty) encodeDynamic(entity, model.dynamicProperty, fields, (errors ??= []));
  for (const index of model.indexes) {
    if (index.kind === 'tag' && fields.get(index.attribute.field) !== undefined) {
      const failure = tagFailure(entity, index.attribute.property);
      if (failure) (errors ??= []).push(failure);
    }
  }
  if (errors && errors.length > 0) throw new ValidationError(model.name, errors);
  for (const index of model.indexes) {
    const value = index.caseInsensitive ? fields.get(index.attribute.field) : undefined;
    if (value !== undefined) fields.set(caseFoldField(index.attribute.field), foldCase(value));
  }
}

/** A tag index's attribute (`@Index({ each: true })`) holds an array of strings: anything else is a failure. */
function tagFailure(entity: object, property: string): AttributeFailure | undefined {
  const value = (entity as Record<string, unknown>)[property];
  // Array.from reads a sparse array's holes as undefined: no element is left unchecked
  if (Array.isArray(value) && Array.from(value).every((element) => typeof element === 'string')) return undefined;
  const found = Array.isArray(value)
    ? `an element ${describeValue(Array.from(value).find((e) => typeof e !== 'string'))}`
    : describeValue(value);
  return attributeFailure(entity, property, value, 'tagElements', `${property} is indexed by element: an array of strings, got ${found}`);
}

function codecFailure(entity: object, property: string, value: unknown, error: unknown): AttributeFailure {
  const constraint = error instanceof CodecError ? error.constraint : 'codec';
  const message = error instanceof Error ? error.message : String(error);
  return attributeFailure(entity, property, value, constraint, `${property} ${message}`);
}

/**
 * The stored fields from an HGETALL reply: a flat field/value list (from a script), or the map node-redis
 * makes of it (an object, or a Map with a custom type mapping).
 */
export function fieldsFromReply(reply: unknown): EncodedFields {
  if (reply instanceof Map) return new Map([...reply].map(([field, value]) => [String(field), String(value)]));
  if (Array.isArray(reply)) {
    const fields: EncodedFields = new Map();
    for (let i = 0; i + 1 < reply.length; i += 2) fields.set(String(reply[i]), String(reply[i + 1]));
    return fields;
  }
  const fields: EncodedFields = new Map();
  for (const field of Object.keys(reply as object)) fields.set(field, String((reply as Record<string, unknown>)[field]));
  return fields;
}

/** Sets every attribute of `entity` from stored fields; attributes without a field become undefined. */
export function decodeInto(model: ModelDescriptor, id: string, fields: EncodedFields, entity: object): void {
  const target = entity as Record<string, unknown>;
  for (const attribute of model.attributes) {
    // a computed value is its getter's: the stored copy serves the indexes
    if (attribute.computed) continue;
    const raw = fields.get(attribute.field);
    if (raw === undefined) {
      target[attribute.property] = undefined;
      continue;
    }
    try {
      target[attribute.property] = attribute.codec.decode(raw);
    } catch (error) {
      throw new DecodeError(model.name, id, attribute.property, asError(error).message);
    }
  }
  if (model.dynamicProperty) target[model.dynamicProperty] = decodeDynamic(fields);
}

/**
 * The fields of a stored object the entity owns (attributes, derived and dynamic fields): the entity's
 * snapshot. The map read from Redis is reused, with `#id`, any field the model does not know and any dynamic
 * field the bag could not read removed: a save diffs against the snapshot, so it leaves those alone.
 */
export function ownedFields(model: ModelDescriptor, fields: EncodedFields): EncodedFields {
  for (const [field, raw] of fields) {
    if (!model.owns(field) || (!model.ownedFields.has(field) && !readableDynamic(field, raw))) fields.delete(field);
  }
  return fields;
}
