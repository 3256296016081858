import { commandsFor } from '../redis/commands-for';
import { RedisCommands } from '../redis/redis-commands';
import { isWrongType } from '../errors/wrong-type';

/** The commands the integrity tools send: a RedisCommands (src/redis/redis-commands.ts). */
export type RawCommands = RedisCommands;
export type { ZRangeWindow } from '../redis/redis-commands';

/** The commands of the client a scope was made with. */
export function raw(client: unknown): RawCommands {
  return commandsFor(client);
}

/** The same client, with bulk replies as Buffers (lex members and memo values are binary). */
export function binary(client: unknown): RawCommands {
  return commandsFor(client).binary();
}

/**
 * What `read` resolves to, or `otherType` when Redis refused it with WRONGTYPE: the key holds another type than
 * the layout gives it (written by something else). Any other error is passed on.
 */
export async function unlessWrongType<T, U>(read: Promise<T>, otherType: U): Promise<T | U> {
  try {
    return await read;
  } catch (error) {
    if (isWrongType(error)) return otherType;
    throw error;
  }
}

/** Bytes as a latin1 string (one char per byte), the form members are compared in. */
export function latin1(value: string | Buffer): string {
  return typeof value === 'string' ? Buffer.from(value, 'utf8').toString('latin1') : value.toString('latin1');
}

/** Escapes the characters SCAN's MATCH treats as a pattern. */
export function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/** Splits `items` into arrays of at most `size`. */
export function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

export { isWrongType };
