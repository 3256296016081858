import { Codec, CodecError } from './codec';

/** Booleans as "true" / "false", readable in redis-cli. */
export const booleanCodec: Codec<boolean> = {
  encode(value) {
    if (typeof value !== 'boolean') throw new CodecError('isBoolean', 'must be a boolean');
    return value ? 'true' : 'false';
  },
  decode(raw) {
    if (raw === 'true') return true;
    if (raw === 'false') return false;
    throw new CodecError('isBoolean', `not a boolean: ${raw.slice(0, 40)}`);
  },
};
