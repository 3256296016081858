import { RawCommands } from './raw-commands';

/**
 * Reads of many members or fields of one key with one command: ZMSCORE, SMISMEMBER, HMGET. The integrity tools
 * check a batch of objects with one such read per key, not a read per object and key: each command costs the
 * client a promise, an encoding and a reply of its own, and those made up most of check()'s time
 * (docs/operations.md, "What a check costs"). An empty list sends nothing (Redis refuses ZMSCORE and SMISMEMBER
 * without a member).
 */

/** The score of each member in the sorted set `key`, null for one it lacks. */
export function scoresIn(client: RawCommands, key: string, members: ReadonlyArray<string | Buffer>): Promise<Array<number | null>> {
  return members.length === 0 ? Promise.resolve([]) : client.zmScore(key, [...members]);
}

/** scoresIn for the members `wanted` marks, null for the others: aligned with `members`, one read for them all. */
export async function scoresWhere(
  client: RawCommands,
  key: string,
  members: readonly string[],
  wanted: readonly boolean[],
): Promise<Array<number | null>> {
  const scores = await scoresIn(
    client,
    key,
    members.filter((_, i) => wanted[i]),
  );
  let next = 0;
  return members.map((_, i) => (wanted[i] ? scores[next++] : null));
}

/** Whether the set `key` holds each member. */
export async function membershipsIn(client: RawCommands, key: string, members: ReadonlyArray<string | Buffer>): Promise<boolean[]> {
  if (members.length === 0) return [];
  return (await client.smIsMember(key, [...members])).map((reply) => Number(reply) === 1);
}

/** The value of each field of the hash `key`, null for one it lacks. */
export function valuesIn(client: RawCommands, key: string, fields: ReadonlyArray<string | Buffer>): Promise<Array<string | Buffer | null>> {
  return fields.length === 0 ? Promise.resolve([]) : client.hmGet(key, [...fields]);
}
