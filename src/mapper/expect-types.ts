import { RedisCommands } from '../connection/redis-commands';
import { isWrongType } from '../errors/wrong-type';
import { scripts } from '../scripts/scripts';

/** A key and the Redis type it must hold, as TYPE names it (string, hash, set, zset). */
export type KeyType = readonly [key: string, type: string];

/**
 * Refuses, with a WrongTypeError naming it, the first of the keys (of one hash tag) that holds another type
 * than its own: one expect-types.lua call, for writes made with native commands (a MULTI runs each of its
 * commands even when one fails, so the types are checked before it is sent).
 */
export function expectTypes(client: RedisCommands, expected: readonly KeyType[]): Promise<unknown> {
  return scripts.expectTypes().run(
    client,
    expected.map(([key]) => key),
    expected.map(([, type]) => type),
  );
}

/**
 * Rethrows `error`, as the WrongTypeError naming which of the `expected` keys holds another type when it is
 * Redis's WRONGTYPE (one more call, made on that failure only): a native command's refusal does not name its key.
 */
export async function namingWrongType(client: RedisCommands, error: unknown, expected: readonly KeyType[]): Promise<never> {
  if (isWrongType(error)) await expectTypes(client, expected);
  throw error;
}
