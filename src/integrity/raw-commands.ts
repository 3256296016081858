import { RESP_TYPES } from 'redis';
import { isWrongType } from '../errors/wrong-type';
import { commandsFor } from '../redis/cluster-commands';

/**
 * The commands the integrity tools send, as a structural type (a node-redis client has them; a cluster client
 * has them through src/redis/cluster-commands.ts: SCAN over every master, UNLINK per hash tag, key scans
 * on the key's node). Members and values come back as strings, or as Buffers from `binary(client)`.
 */
export interface RawCommands {
  scanIterator(options: { MATCH: string; COUNT: number }): AsyncIterable<string[]>;
  zScanIterator(key: string, options: { COUNT: number }): AsyncIterable<Array<{ value: string | Buffer; score: number }>>;
  sScanIterator(key: string, options: { COUNT: number }): AsyncIterable<Array<string | Buffer>>;
  hScanIterator(key: string, options: { COUNT: number }): AsyncIterable<Array<{ field: string | Buffer; value: string | Buffer }>>;
  hGetAll(key: string): Promise<Record<string, string | Buffer>>;
  hmGet(key: string, fields: Array<string | Buffer>): Promise<Array<string | null>>;
  hGet(key: string, field: string | Buffer): Promise<string | null>;
  zScore(key: string, member: string | Buffer): Promise<number | null>;
  zmScore(key: string, members: Array<string | Buffer>): Promise<Array<number | null>>;
  zRange(key: string, min: string | number, max: string | number, options: ZRangeWindow): Promise<string[]>;
  zRangeWithScores(
    key: string,
    min: string | number,
    max: string | number,
    options: ZRangeWindow,
  ): Promise<Array<{ value: string; score: number }>>;
  zCount(key: string, min: number, max: number): Promise<number>;
  zCard(key: string): Promise<number>;
  sIsMember(key: string, member: string | Buffer): Promise<number | boolean>;
  smIsMember(key: string, members: Array<string | Buffer>): Promise<Array<number | boolean>>;
  exists(key: string): Promise<number>;
  pTTL(key: string): Promise<number>;
  type(key: string): Promise<string>;
  get(key: string): Promise<string | null>;
  time(): Promise<unknown>;
  unlink(keys: string[]): Promise<number>;
  withTypeMapping(mapping: Record<number, unknown>): RawCommands;
}

/** ZRANGE's options for one window of a sorted set in its order. */
export interface ZRangeWindow {
  BY: 'SCORE' | 'LEX';
  LIMIT: { offset: number; count: number };
}

export function raw(client: unknown): RawCommands {
  return commandsFor(client) as RawCommands;
}

const binaries = new WeakMap<object, RawCommands>();

/** The same client, with blob replies as Buffers (lex members and memo values are binary). */
export function binary(client: unknown): RawCommands {
  let view = binaries.get(client as object);
  if (!view) {
    view = raw(client).withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
    binaries.set(client as object, view);
  }
  return view;
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
