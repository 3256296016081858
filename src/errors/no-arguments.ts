import { describeValue } from './describe-value';
import { ArgumentError } from './errors';

/**
 * For a call that takes no arguments (`user.tags.count()`): ArgumentError naming the first one given, from a
 * caller without types, rather than an answer to something else than what was asked (a where or `{ limit }`
 * dropped, and every member counted or listed). An argument that is undefined is none, as everywhere.
 */
export function refuseArguments(operation: string, given: ArrayLike<unknown>): void {
  for (let i = 0; i < given.length; i++) {
    if (given[i] !== undefined) throw new ArgumentError(`${operation} takes no arguments; got ${describeValue(given[i])}`);
  }
}
