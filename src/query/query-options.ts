import { describeValue } from '../errors/describe-value';
import { ArgumentError } from '../errors/errors';
import { optionsArgument } from '../errors/options-argument';

/** The options each query call takes: what FindOptions and IterateOptions allow it. */
export const QUERY_OPTIONS = {
  findBy: ['orderBy', 'offset', 'limit', 'include'],
  findOneBy: ['orderBy', 'offset', 'include'],
  findIds: ['orderBy', 'offset', 'limit'],
  iterate: ['batchSize'],
} as const;

export type QueryCall = keyof typeof QUERY_OPTIONS;

/**
 * The options of a query call, checked before the query runs: an object (optionsArgument), holding only
 * the options that call takes. A misspelt name (`order`, `skip`) or one the call does not use (`limit` in
 * iterate, which reads every match; `include` in findIds, which loads no object) would otherwise be ignored
 * without a word, and the query would answer something else than what was asked. An option set to
 * undefined is absent, as everywhere.
 */
export function queryOptions<T extends object>(call: QueryCall, given: T | undefined): T {
  const options = optionsArgument(call, given);
  const allowed: readonly string[] = QUERY_OPTIONS[call];
  for (const name of Object.keys(options)) {
    if (allowed.includes(name) || (options as Record<string, unknown>)[name] === undefined) continue;
    throw new ArgumentError(`${call}: unknown option ${describeValue(name)} (${call} takes ${allowed.join(', ')})`);
  }
  return options;
}
