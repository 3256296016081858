import { RESP_TYPES } from 'redis';
import { WrongTypeError } from '../../../src';
import { keysUnder, RawClient } from '../../support/test-redis';

/** Every key under `prefix` with its type and contents, to compare before and after an operation. */
export async function snapshot(raw: RawClient, prefix: string): Promise<Record<string, unknown>> {
  const state: Record<string, unknown> = {};
  for (const name of (await keysUnder(raw, prefix)).sort()) {
    const type = await raw.type(name);
    if (type === 'string') state[name] = await raw.get(name);
    else if (type === 'hash') state[name] = await raw.hGetAll(name);
    else if (type === 'set') state[name] = (await raw.sMembers(name)).sort();
    else if (type === 'zset') state[name] = await raw.zRangeWithScores(name, 0, -1);
    else state[name] = type;
  }
  return state;
}

/**
 * Puts a string at `damaged` (a hash where `expected` is a string), keeping what it held, runs `operation`, and
 * expects it refused by name with every key under `prefix` unchanged; then puts the key back. With `drawsIds`,
 * the model's sequences are left out: saveMany draws the ids of its new objects before it writes them (so that
 * a retry after a lost reply finds them), and a refusal does not give them back, as an SQL sequence does not.
 */
export async function expectRefused(
  raw: RawClient,
  prefix: string,
  damaged: string,
  expected: string,
  operation: () => Promise<unknown>,
  drawsIds = false,
): Promise<void> {
  const kept = await raw.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer }).dump(damaged);
  await raw.del(damaged);
  // a string written by hand; at a sequence (itself a string), a hash
  const found = expected === 'string' ? 'hash' : 'string';
  if (found === 'hash') await raw.hSet(damaged, 'written', 'by hand');
  else await raw.set(damaged, 'written by hand');
  try {
    const unsequenced = (state: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(state).filter(([name]) => !(drawsIds && name.endsWith(':seq'))));
    const before = unsequenced(await snapshot(raw, prefix));
    const error = await operation().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(WrongTypeError);
    expect(error).toMatchObject({ key: damaged, expected, found });
    expect((error as Error).message).toContain(`${damaged} holds a ${found}, not the ${expected}`);
    expect(unsequenced(await snapshot(raw, prefix))).toEqual(before);
  } finally {
    await raw.del(damaged);
    if (kept) await raw.restore(damaged, 0, kept);
  }
}
