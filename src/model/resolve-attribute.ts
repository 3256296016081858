import { Codec } from '../codecs/codec';
import { ATTRIBUTE_TYPES, AttributeType, codecFor, typeFromDesignType } from '../codecs/attribute-type';
import { SchemaError } from '../errors/errors';
import { AttributeDescriptor } from './attribute-descriptor';
import { PendingAttribute } from './pending-metadata';

/**
 * Turns what @Attr saw into a descriptor: an explicit codec or type wins; else the declared TypeScript type;
 * else the type of the property's default value (`views = 0` emits no usable type metadata).
 */
export function resolveAttribute(pending: PendingAttribute, defaultValue: () => unknown): AttributeDescriptor {
  const descriptor = resolveType(pending, defaultValue);
  if (!pending.role) return descriptor;
  if (descriptor.type !== 'number') {
    throw new SchemaError(
      `${pending.owner}.${pending.property}: @${pending.role === 'counter' ? 'Counter' : 'Version'} needs a number attribute`,
    );
  }
  return { ...descriptor, role: pending.role };
}

function resolveType(pending: PendingAttribute, defaultValue: () => unknown): AttributeDescriptor {
  const where = `${pending.owner}.${pending.property}`;
  const { property, options } = pending;
  if (options.codec !== undefined) {
    if (options.type !== undefined) throw new SchemaError(`${where}: give either type or codec, not both`);
    const codec = options.codec as Partial<Codec>;
    if (typeof codec?.encode !== 'function' || typeof codec?.decode !== 'function') {
      throw new SchemaError(`${where}: a codec needs encode(value) => string and decode(string) => value functions`);
    }
    return { property, field: property, type: 'custom', codec: codec as Codec };
  }
  const declared = typeFromDesignType(pending.designType);
  if (options.type !== undefined) {
    const type = options.type as AttributeType;
    if (!ATTRIBUTE_TYPES.includes(type)) {
      throw new SchemaError(`${where}: unknown type ${JSON.stringify(type)}; use one of ${ATTRIBUTE_TYPES.join(', ')}`);
    }
    if (declared && type !== declared && type !== 'json') {
      throw new SchemaError(`${where}: declared as ${declared} but given type ${type}`);
    }
    return { property, field: property, type, codec: codecFor(type) };
  }
  const inferred = declared ?? typeOfValue(defaultValue());
  if (!inferred) {
    const seen =
      pending.designType === undefined ? 'no type metadata (is emitDecoratorMetadata on?)' : `type ${nameOf(pending.designType)}`;
    throw new SchemaError(
      `${where}: cannot infer the attribute type from ${seen}; declare it as string, number, boolean or Date, or pass { type: 'json' } or { codec }`,
    );
  }
  return { property, field: property, type: inferred, codec: codecFor(inferred) };
}

function typeOfValue(value: unknown): AttributeType | undefined {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (value instanceof Date) return 'date';
  return undefined;
}

/** A design:type for messages: the class's name (String, Array...). */
export function nameOf(designType: unknown): string {
  return typeof designType === 'function' ? designType.name : String(designType);
}
