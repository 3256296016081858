import { describeValue } from '../util/describe-value';

/** Turns an attribute value into the string stored in its hash field, and back. Pure functions. */
export interface Codec<T = unknown> {
  /** Throws CodecError when the value cannot be stored so that it round-trips exactly. */
  encode(value: T): string;
  /** Throws CodecError when the stored string is not one this codec wrote. */
  decode(raw: string): T;
}

/** A value a codec refuses; reported to the caller as a ValidationError of the attribute. */
export class CodecError extends Error {
  constructor(
    /**
     * The name the failure is reported under in the ValidationError item's `constraints` (`isFinite`, say), the
     * message being its text. Thrown by decode, it fails the read with a DecodeError that quotes the message.
     */
    readonly constraint: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Refuses a string holding a lone UTF-16 surrogate: UTF-8 cannot hold one, and Redis would store U+FFFD in its
 * place, so the value would not read back as it was.
 */
export function refuseLoneSurrogates(text: string, message = 'must be well-formed unicode (it holds a lone surrogate)'): void {
  if (!text.isWellFormed()) throw new CodecError('isWellFormed', message);
}

/**
 * `codec.encode(value)`, checked to be a string that Redis stores as it is: a custom codec's encode may give
 * anything at run time.
 */
export function encodeChecked<T>(codec: Codec<T>, value: T): string {
  const encoded: unknown = codec.encode(value);
  if (typeof encoded !== 'string') throw new Error(`its codec's encode gave ${describeValue(encoded)}, not a string`);
  refuseLoneSurrogates(encoded, "its codec's encode gave a string holding a lone surrogate, which Redis would store as U+FFFD");
  return encoded;
}
