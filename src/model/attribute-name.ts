import { SchemaError } from '../errors/errors';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Whether `name` is a plain identifier: what an attribute's name, and so its hash field, must be. */
export function isIdentifier(name: unknown): name is string {
  return typeof name === 'string' && IDENTIFIER.test(name);
}
// `OR` is the key of a where's alternatives: an attribute of that name could never be queried
const RESERVED = new Set(['id', '__proto__', 'constructor', 'prototype', 'OR']);

/**
 * Refuses a property that cannot be an attribute (@Attr, @Counter, @Version, @DynamicAttrs, a @BelongsTo
 * foreign key): a static property, a symbol, a name that is not a plain identifier, or a reserved name. The
 * property name is the hash field, so an identifier never meets an internal `#` field, a dynamic `~` field or
 * the `:` of an index key.
 */
export function checkAttributeName(decorator: string, target: object, property: string | symbol): asserts property is string {
  const owner = typeof target === 'function' ? target.name : target.constructor.name;
  const where = `${owner}.${String(property)}`;
  if (typeof target === 'function') throw new SchemaError(`${where}: ${decorator} goes on instance properties, not static ones`);
  if (!isIdentifier(property)) {
    throw new SchemaError(`${where}: attribute names must be plain identifiers`);
  }
  if (RESERVED.has(property)) throw new SchemaError(`${where}: "${property}" is reserved and cannot be an attribute`);
}
