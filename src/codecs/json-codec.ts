import { Codec, CodecError } from './codec';

/**
 * Objects and arrays as JSON. Values JSON would silently change are refused instead (NaN, Infinity, -0,
 * undefined in arrays, array holes and extra array properties, symbol keys, non-enumerable properties, Dates,
 * class instances, bigints, cycles, lone surrogates), so what is read back equals
 * what was saved. Object properties whose value is undefined are left out, as JSON does.
 * Decoding uses JSON.parse, which creates `__proto__` as a plain own property: no prototype is touched.
 */
export const jsonCodec: Codec<unknown> = {
  encode(value) {
    assertJsonExact(value, '$', new Set());
    return JSON.stringify(value);
  },
  decode(raw) {
    try {
      return JSON.parse(raw);
    } catch {
      throw new CodecError('isJson', 'stored value is not JSON');
    }
  },
};

function assertJsonExact(value: unknown, path: string, seen: Set<object>): void {
  if (value === null || typeof value === 'boolean') return;
  if (typeof value === 'string') {
    if (!value.isWellFormed()) throw new CodecError('isJson', `${path} holds a lone surrogate`);
    return;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Object.is(value, -0)) {
      // String(-0) is '0': name the value that is refused
      throw new CodecError('isJson', `${path} is ${Object.is(value, -0) ? '-0' : String(value)}, which JSON cannot hold exactly`);
    }
    return;
  }
  if (typeof value !== 'object') throw new CodecError('isJson', `${path} is a ${typeof value}, which JSON cannot hold`);
  if (seen.has(value)) throw new CodecError('isJson', `${path} is circular`);
  seen.add(value);
  if (Object.getOwnPropertySymbols(value).length > 0) throw new CodecError('isJson', `${path} has symbol keys, which JSON drops`);
  const keys = Object.keys(value);
  if (Array.isArray(value)) {
    // an array's own names are its indexes and its non-enumerable length, and nothing else
    if (keys.length !== value.length || Object.getOwnPropertyNames(value).length !== value.length + 1) {
      throw new CodecError('isJson', `${path} is an array with holes or extra properties, which JSON drops`);
    }
    for (let i = 0; i < value.length; i++) {
      if (value[i] === undefined) throw new CodecError('isJson', `${path}[${i}] is undefined`);
      assertJsonExact(value[i], `${path}[${i}]`, seen);
    }
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new CodecError('isJson', `${path} is a ${proto?.constructor?.name ?? 'class'} instance, not a plain object`);
    }
    if (Object.getOwnPropertyNames(value).length !== keys.length) {
      throw new CodecError('isJson', `${path} has non-enumerable properties, which JSON drops`);
    }
    for (const key of keys) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) assertJsonExact(item, `${path}.${key}`, seen);
    }
  }
  seen.delete(value);
}
