import { RedisCommands } from '../redis/redis-commands';
import { WrongTypeError } from '../errors/errors';
import { isWrongType } from '../errors/wrong-type';
import { callScript } from './entry-script';
import { KeyType, expectTypesScript } from './lua/expect-types';

export type { KeyType } from './lua/expect-types';

/**
 * Refuses, with a WrongTypeError naming it, the first of the keys (of one hash tag) that holds another type
 * than its own: one expect-types.lua call, for writes made with native commands (a MULTI runs each of its
 * commands even when one fails, so the types are checked before it is sent).
 */
export function expectTypes(client: RedisCommands, expected: readonly KeyType[]): Promise<void> {
  return callScript(client, expectTypesScript, expected);
}

/**
 * Rethrows `error`, as the WrongTypeError naming which of the `expected` keys holds another type when it is
 * Redis's WRONGTYPE (one more call, made on that failure only): a native command's refusal does not name its key.
 */
export async function namingWrongType(client: RedisCommands, error: unknown, expected: readonly KeyType[]): Promise<never> {
  if (isWrongType(error)) await expectTypes(client, expected);
  throw error;
}

/** What a chunk whose keys all passed their checks waits for. */
const PASSED: Promise<void> = Promise.resolve();

/**
 * The key types checked so far in one bulk call, so that its chunks check each key once. A chunk of a plain
 * bulk create is a MULTI of native commands, which would need a round trip before each chunk to check its
 * keys; awaited, that check kept the chunks from following each other and cost a quarter of the throughput.
 * Here each key is checked by the first chunk that writes it, and a later chunk waits only on the checks of
 * its keys still under way (so it is never sent before a check that could refuse it). A chunk whose keys were
 * all checked costs no extra call. The check is not atomic with the write either way: it refuses the keys a
 * program left of another type before the call, not one written between a check and a chunk.
 *
 * Each key has its own outcome: a check that refuses one key says nothing of the others it was given (the
 * script stops at the refusal), so those are checked again, with one call, rather than refused with it. A chunk
 * is refused only for a key it writes, whichever chunk's check found it.
 */
export class KeyTypesChecked {
  /** key -> its check: resolves once it is known to hold its type (or nothing), rejects with its refusal */
  private readonly checks = new Map<string, Promise<void>>();
  /** The keys whose check passed: a chunk writing only these waits for nothing */
  private readonly passed = new Set<string>();

  constructor(private readonly client: RedisCommands) {}

  /** Resolves once every key of `expected` is known to hold its type (or nothing); rejects as expectTypes. */
  expect(expected: readonly KeyType[]): Promise<unknown> {
    const unchecked = expected.filter(([key]) => !this.checks.has(key));
    if (unchecked.length > 0) this.check(unchecked);
    const waits: Array<Promise<void>> = [];
    for (const [key] of expected) if (!this.passed.has(key)) waits.push(this.checks.get(key)!);
    return waits.length === 0 ? PASSED : waits.length === 1 ? waits[0] : Promise.all(waits);
  }

  /** Checks `keys` with one call, and records each key's own outcome. */
  private check(keys: readonly KeyType[]): void {
    // the key the call refused, with its error (undefined: none); any other failure rejects every key's check
    const refused = expectTypes(this.client, keys).then(
      () => undefined,
      (error: unknown) => {
        if (!(error instanceof WrongTypeError) || !keys.some(([key]) => key === error.key)) throw error;
        return error;
      },
    );
    // the keys the refusal left unchecked, checked again with one call (made only after a refusal); each of
    // them then takes its new check's outcome
    let checkedAgain = false;
    for (const [key] of keys) {
      this.checks.set(
        key,
        refused.then((refusal) => {
          if (refusal === undefined) {
            this.passed.add(key);
            return;
          }
          if (refusal.key === key) throw refusal;
          if (!checkedAgain) {
            checkedAgain = true;
            this.check(keys.filter(([other]) => other !== refusal.key));
          }
          return this.checks.get(key);
        }),
      );
    }
  }
}
