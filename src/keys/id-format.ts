import { InvalidIdError, RedisRecordError } from '../errors/errors';

/**
 * Ids become part of key names, so only characters that cannot form another key are allowed: no `:`, no
 * braces (hash tags), no glob characters, no empty id. Sequence ids and uuids both fit.
 */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** Whether `id` can be an id (of any model): what normalizeId takes as a string. */
export function isValidId(id: string): boolean {
  return ID_PATTERN.test(id);
}

/**
 * Whether `id` is one a sequence draws (1, 2, ... 2^53 - 1): a sequence model's `all` scores each id by its
 * number. A sequence never draws past 2^53 - 1 (exactSequenceId), where a number no longer holds every integer:
 * `'9007199254740993'` is no sequence id (ids.lua's isSequenceId says the same in the scripts).
 */
export function isSequenceId(id: string): boolean {
  return /^[1-9]\d*$/.test(id) && Number.isSafeInteger(Number(id));
}

export function normalizeId(model: string, id: unknown): string {
  if (typeof id === 'number') {
    if (Number.isSafeInteger(id) && id >= 0) return String(id);
    throw new InvalidIdError(model, id);
  }
  if (typeof id === 'string' && ID_PATTERN.test(id)) return id;
  throw new InvalidIdError(model, id);
}

/**
 * The text of sequence id `n` of `model`. Past 2^53 - 1 a number no longer holds every integer, and two objects
 * could be given one id: an error before anything is written under it, as in sequence-ids.lua.
 */
export function exactSequenceId(model: string, n: number): string {
  if (!Number.isSafeInteger(n)) throw new RedisRecordError(`${model}: the id sequence is past 2^53 - 1: ids would no longer be exact`);
  return String(n);
}

/**
 * The id of the `drawn`-th value of shard `shard`'s sequence, for a model sharded `shards` ways: (drawn - 1) *
 * shards + shard + 1, so that shards draw distinct ids and an id names its shard, as sequence-ids.lua draws them.
 */
export function shardSequenceId(model: string, shards: number, shard: number, drawn: number): string {
  return exactSequenceId(model, (drawn - 1) * shards + shard + 1);
}
