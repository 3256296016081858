import { ArgumentError } from '../errors/errors';

/** A prefix may hold anything but braces (they would change the hash tag) and must not be empty. */
export function assertValidPrefix(prefix: string): void {
  // a lone surrogate would be written as U+FFFD, so two different prefixes could share keys
  if (typeof prefix !== 'string' || prefix.length === 0 || /[{}]/.test(prefix) || !prefix.isWellFormed()) {
    throw new ArgumentError(`invalid prefix ${JSON.stringify(prefix)}: a non-empty, well-formed string without { or }`);
  }
}
