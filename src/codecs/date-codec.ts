import { Codec, CodecError } from './codec';

/** Dates as epoch milliseconds: exact to the millisecond, and usable as a sorted-set score. */
export const dateCodec: Codec<Date> = {
  encode(value) {
    if (!(value instanceof Date)) throw new CodecError('isDate', 'must be a Date');
    const time = value.getTime();
    if (Number.isNaN(time)) throw new CodecError('isDate', 'must be a valid Date (got Invalid Date)');
    // String() gives one flat string. Building it from two parts (its millions, then six padded digits) took
    // half the time here, but made a rope of two strings: each later use (node-redis's byte count, the socket's
    // write, the snapshot's parse) then cost more than was saved, 80 to 120 ns per post in all
    // (bench/date-encoding.ts).
    return String(time);
  },
  decode(raw) {
    if (!/^-?(0|[1-9]\d*)$/.test(raw)) throw new CodecError('isDate', `not a timestamp: ${raw.slice(0, 40)}`);
    const date = new Date(Number(raw));
    // beyond ±8.64e15 ms a Date is invalid: it would read as Invalid Date, which no write can store back
    if (Number.isNaN(date.getTime())) throw new CodecError('isDate', `not a timestamp a Date can hold: ${raw.slice(0, 40)}`);
    return date;
  },
};
