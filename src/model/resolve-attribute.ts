import { Codec } from '../codecs/codec';
import { ATTRIBUTE_TYPES, AttributeType, codecFor, typeFromDesignType } from '../codecs/attribute-type';
import { SchemaError } from '../errors/errors';
import { AttributeDescriptor } from './attribute-descriptor';
import { PendingAttribute } from './pending-metadata';

/**
 * Turns what @Attr saw into a descriptor: an explicit codec or type wins; else the declared TypeScript type, where
 * the compiler emits it (`design:type`); else the type of the property's default value (`views = 0` emits no
 * usable type metadata, and standard decorators none at all).
 */
export function resolveAttribute(pending: PendingAttribute, defaultValue: () => unknown): AttributeDescriptor {
  const descriptor = resolveType(pending, pending.computed ? () => undefined : defaultValue);
  if (pending.computed) return { ...descriptor, computed: true };
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
  // the default value is read only when needed: @Model makes an instance for it
  const inferred = declared ?? typeOfValue(defaultValue());
  if (!inferred)
    throw new SchemaError(`${where}: ${untyped(pending.designType, defaultValue(), pending.computed ? '@Computed' : '@Attr')}`);
  return { property, field: property, type: inferred, codec: codecFor(inferred) };
}

/**
 * Why an attribute has no type, and the option that gives it one. No `design:type` at all: the compiler emits no
 * decorator metadata (standard decorators; esbuild, tsx, Vite, swc without it), and the type must be given. One
 * that names no storable type (Object for a union or an interface, Array): the type must be given too.
 */
function untyped(designType: unknown, value: unknown, decorator: string): string {
  const suggested = designType === Array || (typeof value === 'object' && value !== null) ? 'json' : 'string';
  const fix = `${decorator}({ type: '${suggested}' }) (types: ${ATTRIBUTE_TYPES.join(', ')}${decorator === '@Attr' ? '; or @Attr({ codec })' : ''})`;
  if (designType === undefined) {
    return `no type information for this attribute (the compiler emits no decorator metadata): declare it, ${fix}`;
  }
  return `cannot infer the attribute type from the declared type (${nameOf(designType)}): declare it, ${fix}`;
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
