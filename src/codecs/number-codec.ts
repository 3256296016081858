import { Codec, CodecError } from './codec';

/**
 * Finite numbers as their shortest round-trip decimal form (`String(n)`), with -0 kept as "-0".
 * The form is also a valid sorted-set score, so number indexes use the stored string directly.
 */
/** The forms String(n) gives for finite numbers (and "-0"); anything else was not written by this codec. */
const NUMBER_FORM = /^-?(0|[1-9]\d*)(\.\d+)?(e[+-]\d+)?$/;

export const numberCodec: Codec<number> = {
  encode(value) {
    if (typeof value !== 'number') throw new CodecError('isNumber', 'must be a number');
    if (!Number.isFinite(value)) throw new CodecError('isFinite', 'must be a finite number');
    return Object.is(value, -0) ? '-0' : String(value);
  },
  decode(raw) {
    if (!NUMBER_FORM.test(raw)) throw new CodecError('isNumber', `not a number: ${raw.slice(0, 40)}`);
    const value = Number(raw);
    // '1e+400' has the form but no double: it would read as Infinity, which no write can store back
    if (!Number.isFinite(value)) throw new CodecError('isFinite', `not a finite number: ${raw.slice(0, 40)}`);
    return value;
  },
};
