import { Codec, CodecError } from './codec';

/** Strings are stored as they are; a lone UTF-16 surrogate cannot survive UTF-8 and is refused. */
export const stringCodec: Codec<string> = {
  encode(value) {
    if (typeof value !== 'string') throw new CodecError('isString', 'must be a string');
    if (!value.isWellFormed()) {
      throw new CodecError('isWellFormed', 'must be well-formed unicode (it holds a lone surrogate)');
    }
    return value;
  },
  decode(raw) {
    return raw;
  },
};
