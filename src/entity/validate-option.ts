import { describeValue } from '../util/describe-value';
import { ArgumentError } from '../errors/errors';

/**
 * The `validate` option of save(), create() and saveMany(), checked: true or false, or absent (validate).
 * Anything else is an ArgumentError, as for waitReplicas and chunkSize: `{ validate: 'false' }` or
 * `{ validate: 0 }` would otherwise validate, the opposite of what the caller seems to mean.
 */
export function validateOption(operation: string, value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'boolean') throw new ArgumentError(`${operation}: validate must be true or false, got ${describeValue(value)}`);
  return value;
}
