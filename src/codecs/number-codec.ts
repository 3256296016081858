import { Codec, CodecError } from './codec';

/**
 * Finite numbers as their shortest round-trip decimal form (`String(n)`), with -0 kept as "-0".
 * The form is also a valid sorted-set score, so number indexes use the stored string directly.
 */
export const numberCodec: Codec<number> = {
  encode(value) {
    if (typeof value !== 'number') throw new CodecError('isNumber', 'must be a number');
    if (!Number.isFinite(value)) throw new CodecError('isFinite', 'must be a finite number');
    return Object.is(value, -0) ? '-0' : String(value);
  },
  decode(raw) {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value)) throw new CodecError('isNumber', `not a number: ${raw.slice(0, 40)}`);
    return value;
  },
};
