import { Codec } from './codec';
import { stringCodec } from './string-codec';
import { numberCodec } from './number-codec';
import { booleanCodec } from './boolean-codec';
import { dateCodec } from './date-codec';
import { jsonCodec } from './json-codec';
import { SortableString } from './sortable-string';

/** The attribute types redis-record knows; `custom` is any user codec. */
export type AttributeType = 'string' | 'number' | 'boolean' | 'date' | 'json';
/** An attribute's type as a stored definition names it: a built-in type, or `custom` for a codec. */
export type StoredType = AttributeType | 'custom';

export const ATTRIBUTE_TYPES: readonly AttributeType[] = ['string', 'number', 'boolean', 'date', 'json'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one map of codecs of different value types
const codecs: Record<AttributeType, Codec<any>> = {
  string: stringCodec,
  number: numberCodec,
  boolean: booleanCodec,
  date: dateCodec,
  json: jsonCodec,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the codec of whichever type is named
export function codecFor(type: AttributeType): Codec<any> {
  return codecs[type];
}

/** The type TypeScript's emitted `design:type` names, or undefined when it names none we can store. */
export function typeFromDesignType(designType: unknown): AttributeType | undefined {
  if (designType === String || designType === SortableString) return 'string';
  if (designType === Number) return 'number';
  if (designType === Boolean) return 'boolean';
  if (designType === Date) return 'date';
  return undefined;
}
