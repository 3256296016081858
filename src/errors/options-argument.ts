import { describeValue } from './describe-value';
import { ArgumentError } from './errors';

/**
 * The options argument of a public call, checked before anything runs: `{}` when none was given, else the
 * object itself. null, an array or a primitive is an ArgumentError naming the call (TypeScript callers cannot
 * pass them; JavaScript callers would otherwise get a TypeError from deep inside).
 */
export function optionsArgument<T extends object>(operation: string, value: T | undefined): T {
  if (value === undefined) return {} as T;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ArgumentError(`${operation}: options must be an object, got ${describeValue(value)}`);
  }
  return value;
}
