import { knownOptions } from '../errors/options-argument';

/** The options each query call takes: what FindOptions and IterateOptions allow it. */
export const QUERY_OPTIONS = {
  findBy: ['orderBy', 'offset', 'limit', 'include'],
  findOneBy: ['orderBy', 'offset', 'include'],
  findIds: ['orderBy', 'offset', 'limit'],
  findPage: ['orderBy', 'limit', 'after', 'include'],
  iterate: ['batchSize'],
} as const;

export type QueryCall = keyof typeof QUERY_OPTIONS;

/**
 * The options of a query call, checked before the query runs (knownOptions): a misspelt name (`order`, `skip`) or
 * one the call does not use (`limit` in iterate, which reads every match; `include` in findIds, which loads no
 * object) is an ArgumentError, as the query would otherwise answer something else than what was asked.
 */
export function queryOptions<T extends object>(call: QueryCall, given: T | undefined): T {
  return knownOptions(call, given, QUERY_OPTIONS[call]);
}
