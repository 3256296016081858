/**
 * An iterator that fails on its first next() with `error`: how iterate() reports bad input found before it
 * starts (a class that is no model, a where a has-many handle refuses), as it reports any other, rather than
 * throwing at the call.
 */
// eslint-disable-next-line require-yield -- it fails before its first value, by design
export async function* failingIterator(error: unknown): AsyncGenerator<never> {
  throw error;
}
