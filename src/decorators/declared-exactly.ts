/**
 * `unknown` when property `K` of the prototype `P` is declared (less null and undefined) as exactly `T`, else
 * `Mismatch`. A property decorator intersects its key argument with it, so that a property declared otherwise
 * fails to compile, with `Mismatch`'s text in the error.
 */
export type DeclaredExactly<P, K, T, Mismatch> = K extends keyof P
  ? [NonNullable<P[K]>] extends [T]
    ? [T] extends [NonNullable<P[K]>]
      ? unknown
      : Mismatch
    : Mismatch
  : Mismatch;
