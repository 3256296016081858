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
    readonly constraint: string,
    message: string,
  ) {
    super(message);
  }
}
