import { ArgumentError } from '../errors/errors';

/** Objects per script call (saveMany) or per transaction (removeMany) unless told otherwise. */
export const DEFAULT_CHUNK_SIZE = 500;
/** Above this, one call would keep Redis busy (and every other client waiting) for too long. */
const MAX_CHUNK_SIZE = 10_000;

/** The chunkSize option, checked: a whole number from 1 to 10,000, or the default. */
export function chunkSizeOption(operation: string, value: unknown): number {
  if (value === undefined) return DEFAULT_CHUNK_SIZE;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_CHUNK_SIZE) {
    throw new ArgumentError(`${operation}: chunkSize must be a whole number from 1 to ${MAX_CHUNK_SIZE}, got ${String(value)}`);
  }
  return value;
}
