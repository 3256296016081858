import { Codec, CodecError, refuseLoneSurrogates } from './codec';

/** Strings are stored as they are; a lone UTF-16 surrogate cannot survive UTF-8 and is refused. */
export const stringCodec: Codec<string> = {
  encode(value) {
    if (typeof value !== 'string') throw new CodecError('isString', 'must be a string');
    refuseLoneSurrogates(value);
    return value;
  },
  decode(raw) {
    return raw;
  },
};
