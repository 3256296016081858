import { describeValue } from '../util/describe-value';
import { ArgumentError } from './errors';

/**
 * For a call that takes no arguments (`user.tags.count()`): ArgumentError naming the first one given, from a
 * caller without types, rather than an answer to something else than what was asked (a where or `{ limit }`
 * dropped, and every member counted or listed). An argument that is undefined is none, as everywhere.
 */
export function refuseArguments(operation: string, given: ArrayLike<unknown>): void {
  const extra = firstGiven(given, 0);
  if (extra !== undefined) throw new ArgumentError(`${operation} takes no arguments; got ${describeValue(extra)}`);
}

/**
 * For a call that takes `count` arguments (`Post.find(id)`, `user.tags.add(tag)`): ArgumentError naming the
 * first one given past them, from a caller without types (`Post.find(id, { include })`), rather than an answer
 * that ignores what was asked. `takes` says what the call takes ('an id'); undefined is no argument.
 */
export function refuseExtraArguments(operation: string, given: ArrayLike<unknown>, count: number, takes: string): void {
  const extra = firstGiven(given, count);
  if (extra !== undefined) throw new ArgumentError(`${operation} takes ${takes} alone; got ${describeValue(extra)} after it`);
}

/** The first argument from position `from` on that is not undefined (undefined when there is none). */
export function firstGiven(given: ArrayLike<unknown>, from: number): unknown {
  for (let i = from; i < given.length; i++) if (given[i] !== undefined) return given[i];
  return undefined;
}
