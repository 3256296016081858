import { ArgumentError } from '../errors/errors';

/** A prefix may hold anything but braces (they would change the hash tag) and must not be empty. */
export function assertValidPrefix(prefix: string): void {
  if (typeof prefix !== 'string' || prefix.length === 0 || /[{}]/.test(prefix)) {
    throw new ArgumentError(`invalid prefix ${JSON.stringify(prefix)}: a non-empty string without { or }`);
  }
}
