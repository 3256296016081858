import { hashTagOf } from '../keys/hash-tag';
import { KeyScans } from './key-scans';
import { TransactionBuilder } from './transaction-builder';
import { pairsToRecord, parseScore, ScoredMember, scoredMembers, windowArguments, ZRangeWindow } from './reply-shapes';
import type { Argument, Command, Transport } from './transport';

export type { ScoredMember, ZRangeWindow } from './reply-shapes';

/**
 * The commands redis-record sends, over any client's Transport: each a method that sends one command to the node
 * holding its key and reads its reply. Replies are strings; those of `binary()` are Buffers (lex members and memo
 * entries hold bytes). On a cluster, SCAN walks every master in turn, and UNLINK is sent once per hash tag.
 */
export class RedisCommands extends KeyScans {
  constructor(
    readonly transport: Transport,
    readonly buffers = false,
  ) {
    super(transport, buffers);
  }

  private binaryTwin: RedisCommands | undefined;

  /** The same commands with bulk replies as Buffers. */
  binary(): RedisCommands {
    if (this.buffers) return this;
    return (this.binaryTwin ??= new RedisCommands(this.transport, true));
  }

  /** One command on the node holding `key` (any node without a key). */
  send(command: Command, key?: string): Promise<unknown> {
    return this.transport.send(command, key, this.buffers ? { buffers: true } : undefined);
  }

  /** MULTI ... EXEC of commands added to the builder, on the node of the first key it is given. */
  multi(): TransactionBuilder {
    return new TransactionBuilder(this.transport, this.buffers);
  }

  async type(key: string): Promise<string> {
    return String(await this.send(['TYPE', key], key));
  }
  async exists(key: string): Promise<number> {
    return Number(await this.send(['EXISTS', key], key));
  }
  async incr(key: string): Promise<number> {
    return Number(await this.send(['INCR', key], key));
  }
  get(key: string): Promise<string | null> {
    return this.send(['GET', key], key) as Promise<string | null>;
  }
  async pTTL(key: string): Promise<number> {
    return Number(await this.send(['PTTL', key], key));
  }
  async hSet(key: string, field: Argument, value: Argument): Promise<number> {
    return Number(await this.send(['HSET', key, field, value], key));
  }
  hGet(key: string, field: Argument): Promise<string | null> {
    return this.send(['HGET', key, field], key) as Promise<string | null>;
  }
  /** HGETALL as its flat [field, value, ...] reply. */
  hGetAllPairs(key: string): Promise<string[]> {
    return this.send(['HGETALL', key], key) as Promise<string[]>;
  }
  async hGetAll(key: string): Promise<Record<string, string>> {
    return pairsToRecord(await this.hGetAllPairs(key));
  }
  hmGet(key: string, fields: readonly Argument[]): Promise<Array<string | null>> {
    return this.send(['HMGET', key, ...fields], key) as Promise<Array<string | null>>;
  }
  async hLen(key: string): Promise<number> {
    return Number(await this.send(['HLEN', key], key));
  }
  async sIsMember(key: string, member: Argument): Promise<number> {
    return Number(await this.send(['SISMEMBER', key, member], key));
  }
  async smIsMember(key: string, members: readonly Argument[]): Promise<number[]> {
    return ((await this.send(['SMISMEMBER', key, ...members], key)) as unknown[]).map(Number);
  }
  sMembers(key: string): Promise<string[]> {
    return this.send(['SMEMBERS', key], key) as Promise<string[]>;
  }
  async sCard(key: string): Promise<number> {
    return Number(await this.send(['SCARD', key], key));
  }
  async zCard(key: string): Promise<number> {
    return Number(await this.send(['ZCARD', key], key));
  }
  async zCount(key: string, min: number | string, max: number | string): Promise<number> {
    return Number(await this.send(['ZCOUNT', key, String(min), String(max)], key));
  }
  async zScore(key: string, member: Argument): Promise<number | null> {
    const score = await this.send(['ZSCORE', key, member], key);
    return score === null ? null : parseScore(String(score));
  }
  async zmScore(key: string, members: readonly Argument[]): Promise<Array<number | null>> {
    const scores = (await this.send(['ZMSCORE', key, ...members], key)) as unknown[];
    return scores.map((score) => (score === null ? null : parseScore(String(score))));
  }
  zRange(key: string, min: number | string, max: number | string, window: ZRangeWindow): Promise<string[]> {
    return this.send(['ZRANGE', key, String(min), String(max), ...windowArguments(window)], key) as Promise<string[]>;
  }
  /** ZRANGE by rank: the members from position `start` to `stop` (inclusive; negative counts from the end). */
  zRangeByRank(key: string, start: number, stop: number): Promise<string[]> {
    return this.send(['ZRANGE', key, String(start), String(stop)], key) as Promise<string[]>;
  }
  async zRangeWithScores(key: string, min: number | string, max: number | string, window?: ZRangeWindow): Promise<ScoredMember[]> {
    const flat = (await this.send(['ZRANGE', key, String(min), String(max), ...windowArguments(window), 'WITHSCORES'], key)) as string[];
    return scoredMembers(flat);
  }
  zRandMemberCount(key: string, count: number): Promise<string[]> {
    return this.send(['ZRANDMEMBER', key, String(count)], key) as Promise<string[]>;
  }
  /** TIME on the node of `key` (the server whose clock expiry is judged by): [seconds, microseconds]. */
  time(key?: string): Promise<[string, string]> {
    return this.send(['TIME'], key) as Promise<[string, string]>;
  }

  /** UNLINK: one command per hash tag on a cluster (keys of one tag share a slot); how many keys existed. */
  async unlink(keys: readonly string[]): Promise<number> {
    if (keys.length === 0) return 0;
    if (!this.transport.isCluster) return Number(await this.send(['UNLINK', ...keys], keys[0]));
    const byTag = new Map<string, string[]>();
    for (const key of keys) {
      const tag = hashTagOf(key);
      const group = byTag.get(tag);
      if (group) group.push(key);
      else byTag.set(tag, [key]);
    }
    const counts = await Promise.all([...byTag.values()].map((group) => this.send(['UNLINK', ...group], group[0])));
    return counts.reduce<number>((sum, n) => sum + Number(n), 0);
  }
}
