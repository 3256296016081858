import { Codec, CodecError } from './codec';

/** Dates as epoch milliseconds: exact to the millisecond, and usable as a sorted-set score. */
export const dateCodec: Codec<Date> = {
  encode(value) {
    if (!(value instanceof Date)) throw new CodecError('isDate', 'must be a Date');
    const time = value.getTime();
    if (Number.isNaN(time)) throw new CodecError('isDate', 'must be a valid Date (got Invalid Date)');
    return String(time);
  },
  decode(raw) {
    if (!/^-?(0|[1-9]\d*)$/.test(raw)) throw new CodecError('isDate', `not a timestamp: ${raw.slice(0, 40)}`);
    return new Date(Number(raw));
  },
};
