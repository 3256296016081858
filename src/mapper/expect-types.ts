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

/**
 * The key types checked so far in one bulk call, so that its chunks check each key once. A chunk of a plain
 * bulk create is a MULTI of native commands, which would need a round trip before each chunk to check its
 * keys; awaited, that check kept the chunks from following each other and cost a quarter of the throughput.
 * Here each key is checked by the first chunk that writes it, and a later chunk waits only on the checks of
 * its keys still under way (so it is never sent before a check that could refuse it). A chunk whose keys were
 * all checked costs no extra call. The check is not atomic with the write either way: it refuses the keys a
 * program left of another type before the call, not one written between a check and a chunk.
 */
export class KeyTypesChecked {
  private readonly checks = new Map<string, Promise<unknown>>();

  constructor(private readonly client: RedisCommands) {}

  /** Resolves once every key of `expected` is known to hold its type (or nothing); rejects as expectTypes. */
  expect(expected: readonly KeyType[]): Promise<unknown> {
    const unchecked = expected.filter(([key]) => !this.checks.has(key));
    const waits = new Set<Promise<unknown>>();
    if (unchecked.length > 0) {
      const check = expectTypes(this.client, unchecked);
      for (const [key] of unchecked) this.checks.set(key, check);
      waits.add(check);
    }
    for (const [key] of expected) waits.add(this.checks.get(key)!);
    return waits.size === 1 ? waits.values().next().value! : Promise.all(waits);
  }
}
