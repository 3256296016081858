import 'reflect-metadata';
import { Codec } from '../codecs/codec';
import { AttributeType } from '../codecs/attribute-type';
import { SchemaError } from '../errors/errors';
import { addPendingAttribute } from '../metadata/pending-metadata';

export interface AttrOptions {
  /** The stored type; inferred from the declared TypeScript type, or the default value, for string, number, boolean and Date. */
  type?: AttributeType;
  /** Custom serialization: `encode` to a string, `decode` back. Replaces `type`. */
  codec?: Codec<any>;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const RESERVED = new Set(['id', '__proto__', 'constructor', 'prototype']);

/** Marks a property as a persisted attribute; `@Model` resolves its type when the class is defined. */
export function Attr(options: AttrOptions = {}): PropertyDecorator {
  return (target: object, property: string | symbol) => {
    const owner = typeof target === 'function' ? target.name : target.constructor.name;
    const where = `${owner}.${String(property)}`;
    if (typeof target === 'function') throw new SchemaError(`${where}: @Attr goes on instance properties, not static ones`);
    if (typeof property !== 'string' || !IDENTIFIER.test(property)) {
      throw new SchemaError(`${where}: attribute names must be plain identifiers`);
    }
    if (RESERVED.has(property)) throw new SchemaError(`${where}: "${property}" is reserved and cannot be an attribute`);
    const designType: unknown = Reflect.getMetadata('design:type', target, property);
    addPendingAttribute(target, { property, owner, designType, options });
  };
}
