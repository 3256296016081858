import { describeValue } from '../util/describe-value';

/**
 * A thrown value as the Error a bulk call reports it with: an Error is kept as it is; anything else (a hook
 * that throws a string, or undefined) becomes an Error whose message is the string, or names the value, and
 * whose `cause` is the value itself, so nothing of what was thrown is lost.
 */
export function asError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  return new Error(typeof thrown === 'string' ? thrown : `a value that is not an Error was thrown: ${describeValue(thrown)}`, {
    cause: thrown,
  });
}
