import { describeValue } from '../util/describe-value';
import { ArgumentError } from './errors';

/**
 * The options argument of a public call, checked before anything runs: `{}` when none was given, else the
 * object itself. null, an array or a primitive is an ArgumentError naming the call (TypeScript callers cannot
 * pass them; JavaScript callers would otherwise get a TypeError from deep inside).
 */
function optionsArgument<T extends object>(operation: string, value: T | undefined): T {
  if (value === undefined) return {} as T;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ArgumentError(`${operation}: options must be an object, got ${describeValue(value)}`);
  }
  return value;
}

/**
 * The options argument of a call that takes the options `allowed`: optionsArgument, holding no other name. A
 * misspelt name (`ttl` for `ttlMs`) or one the call does not use would otherwise be ignored without a word, and
 * the call would do something else than what was asked. An option set to undefined is absent, as everywhere.
 */
export function knownOptions<T extends object>(operation: string, value: T | undefined, allowed: readonly string[]): T {
  if (value === undefined) return {} as T;
  const options = optionsArgument(operation, value);
  const unknown = unknownOption(options, allowed);
  if (unknown !== undefined) {
    throw new ArgumentError(`${operation}: unknown option ${describeValue(unknown)} (${operation} takes ${allowed.join(', ')})`);
  }
  return options;
}

/**
 * The first name of `options` outside `allowed` that holds a value (an option set to undefined is absent), or
 * undefined: how every call and decorator finds a misspelt option (decorator-options.ts).
 */
export function unknownOption(options: object, allowed: readonly string[]): string | undefined {
  for (const name of Object.keys(options)) {
    if (!allowed.includes(name) && (options as Record<string, unknown>)[name] !== undefined) return name;
  }
  return undefined;
}
