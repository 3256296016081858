/**
 * `unknown` when a declared type `V` (less null and undefined) is exactly `T`, else `Mismatch`. A standard
 * decorator intersects the field's context with it (its `V` is the field's type), so that a field declared
 * otherwise fails to compile, with `Mismatch`'s text in the error.
 */
export type ValueExactly<V, T, Mismatch> = [NonNullable<V>] extends [T] ? ([T] extends [NonNullable<V>] ? unknown : Mismatch) : Mismatch;

/**
 * `unknown` when property `K` of the prototype `P` is declared (less null and undefined) as exactly `T`, else
 * `Mismatch`. A legacy property decorator intersects its key argument with it, so that a property declared
 * otherwise fails to compile, with `Mismatch`'s text in the error.
 */
export type DeclaredExactly<P, K, T, Mismatch> = K extends keyof P ? ValueExactly<P[K], T, Mismatch> : Mismatch;
