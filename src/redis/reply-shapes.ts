/** Replies of sorted-set and hash commands, read from their RESP2 shapes. */

/** A sorted set's member with its score, as ZRANGE WITHSCORES and ZSCAN list them. */
export interface ScoredMember {
  value: string;
  score: number;
}

/** ZRANGE's options for one window of a sorted set in its order. */
export interface ZRangeWindow {
  BY: 'SCORE' | 'LEX';
  LIMIT: { offset: number; count: number };
}

/** A score as Redis writes it: `inf` and `-inf` for the infinities. */
export function parseScore(text: unknown): number {
  if (text === 'inf' || text === '+inf') return Infinity;
  if (text === '-inf') return -Infinity;
  return Number(text);
}

/** A flat [field, value, ...] reply as an object of fields (an empty one for a missing key). */
export function pairsToRecord<V>(pairs: readonly V[]): Record<string, V> {
  const record: Record<string, V> = {};
  for (let i = 0; i < pairs.length; i += 2) record[String(pairs[i])] = pairs[i + 1];
  return record;
}

/** BYSCORE / BYLEX and LIMIT, as ZRANGE takes them. */
export function windowArguments(window: ZRangeWindow | undefined): string[] {
  if (!window) return [];
  return [`BY${window.BY}`, 'LIMIT', String(window.LIMIT.offset), String(window.LIMIT.count)];
}

/** A flat [member, score, ...] reply as members with their scores. */
export function scoredMembers(flat: readonly unknown[]): ScoredMember[] {
  const members: ScoredMember[] = [];
  for (let i = 0; i < flat.length; i += 2) members.push({ value: flat[i] as string, score: parseScore(String(flat[i + 1])) });
  return members;
}
