import { wholeMilliseconds } from '../util/whole-milliseconds';
import { describeValue } from '../util/describe-value';

/** How long an idempotent create remembers its key by default: 24 hours, in ms. */
export const DEFAULT_IDEMPOTENCY_TTL_MS = 86_400_000;

/** The longest idempotency key: it is part of a Redis key name. */
const MAX_KEY_LENGTH = 256;

/** `idempotencyTtl` (seconds) in ms; undefined when not given; `fail(message)` for a value that is not one. */
export function idempotencyTtlMs(seconds: unknown, fail: (message: string) => Error): number | undefined {
  if (seconds === undefined) return undefined;
  const ms = wholeMilliseconds(seconds);
  if (ms === undefined || ms < 1 || ms > 365 * DEFAULT_IDEMPOTENCY_TTL_MS) {
    throw fail(`idempotencyTtl must be a positive number of seconds, at most a year (got ${describeValue(seconds)})`);
  }
  return ms;
}

/** An idempotency key as given: a non-empty string of at most 256 characters; `fail(message)` otherwise. */
export function idempotencyKey(key: unknown, fail: (message: string) => Error): string {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw fail(`idempotencyKey must be a string of 1 to ${MAX_KEY_LENGTH} characters (got ${describeValue(key)})`);
  }
  return key;
}
