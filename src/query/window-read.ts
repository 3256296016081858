import { CommandError } from '../errors/command-errors';
import { isWrongType } from '../errors/wrong-type';
import { RedisCommands } from '../redis/redis-commands';
import { timeMs } from '../redis/server-time';
import { ModelKeys } from '../keys/model-keys';
import { ModelDescriptor } from '../model/model-descriptor';
import { callScript } from '../store/entry-script';
import { sortRowsById } from '../store/id-order';
import { WindowInput, windowScript } from '../store/lua/window';
import { PageRequest, QueryPlan } from '../store/query-plan';

/**
 * Queries one index window answers, read with window.lua instead of query.lua.
 *
 * A where that is one range of one sorted index (with an equality on its scope: a composite index), without
 * orderBy, matches exactly the ids in that window while no object of the model is due to expire: index entries
 * are written and removed with their object. Such a query (ids of a model with sequence ids, a page by offset
 * and limit; or a count) is one window.lua call: it checks, by the server's clock, that no `exp` entry is due,
 * and returns the window's ids in one comma-separated string (or their count). The ids are put in numeric
 * order and paged here. When an object is due, the reply is not used: query.lua runs, which sweeps the due
 * objects first. A model with a ttl always has objects coming due, so its queries go to query.lua directly.
 *
 * What this saves against query.lua's own window path (same reads, same answer): in Redis, the script's body,
 * which defines every function of its libraries on each call, and the reply of one bulk string per id; in the
 * client, parsing those (node-redis decodes each into a string of its own), which cost more than all the rest
 * of the call. Measured on 50,000 posts, a window of 465 ids: findIds about 0.51 -> 0.26 ms a call, the script
 * about 145 -> 84 us inside Redis.
 */
export type WindowRange = Omit<WindowInput, 'keys'>;

/** The window a plan reads with window.lua in `mode`, or undefined when query.lua must answer. */
export function plainWindow(model: ModelDescriptor, plan: QueryPlan, mode: 'ids' | 'count', page: PageRequest): WindowRange | undefined {
  if (model.ttlMs !== undefined || plan.window || plan.order.kind !== 'id' || page.afterId) return undefined;
  // ids in id order are sorted numerically here: sequence ids only
  if (mode === 'ids' && model.idStrategy !== 'sequence') return undefined;
  const program = plan.program;
  if (program.length !== 4) return undefined;
  const [kind, key, min, max] = program;
  if ((kind !== 'Z' && kind !== 'L') || typeof key !== 'string') return undefined;
  return { mode, kind, key, min, max };
}

/**
 * Reads the window: the page of ids in id order ('ids'), or how many ids it holds ('count'); undefined when an
 * object of the model is due to expire (the caller then runs query.lua).
 */
export async function readWindow(
  client: RedisCommands,
  keys: ModelKeys,
  range: WindowRange,
  page: PageRequest,
): Promise<string[] | number | undefined> {
  const read = await callScript(client, windowScript, { keys, ...range });
  if (read === undefined || typeof read === 'number') return read;
  if (page.limit === 0) return [];
  const end = page.limit < 0 ? read.length : Math.min(read.length, page.offset + page.limit);
  return page.offset === 0 && end === read.length ? read : read.slice(page.offset, end);
}

// ---------------------------------------------------------------------------------------------- loads

/**
 * The objects of a whole window (a load of every match, in id order, of a where one score index window
 * answers, on a model with sequence ids and no ttl), read without a script: Lua is bypassed because passing
 * the loaded values through it (each HMGET's reply made into Lua values, then the whole list made back into
 * a reply) costs Redis three to four times what the reads themselves do.
 *
 * SORT_RO <index> BY nosort LIMIT <start> <count> GET <base>:obj:*->#id GET <base>:obj:*->field ... reads the
 * hash fields of the members at ranks start .. start + count - 1 of the index, in C, in one command. The ranks
 * of the window are not known before it runs, so the transaction reads them as well and the rows are used only
 * when they match:
 *
 *   MULTI; ZRANGE <exp> 0 0 WITHSCORES; TIME; ZCOUNT <index> -inf <max>; ZCOUNT <index> <min> <max>;
 *          SORT_RO ... LIMIT <start> <count> ...; EXEC
 *
 * The window is exactly ranks end - n .. end - 1, where end and n are the two counts; when they equal the
 * start and count the SORT_RO was given, its rows are the window, all read in one consistent state. A first
 * transaction without the SORT_RO reads the counts; if a write moves the window in between, the counts of the
 * failed read are used for the next one (at most three reads of the rows, then query.lua). As for ids, a due
 * object sends the query to query.lua, which sweeps it. Measured on 50,000 posts, a window of 465 objects:
 * SORT_RO about 0.74 ms inside Redis where query.lua took about 1.7 ms; two round trips instead of one.
 *
 * Rows whose `#id` is nil (a hash that vanished) are left out, as query.lua leaves them out.
 * Not used on a Redis Cluster (Redis 7.0 refuses SORT's GET patterns there whatever their slot), nor on a
 * connection where SORT_RO was refused once (e.g. an ACL user without @dangerous or with key patterns): such
 * loads go to query.lua.
 */
export interface LoadWindow {
  readonly key: string;
  readonly min: string;
  readonly max: string;
  /** SORT GET patterns of the fields to read, `#id` first. */
  readonly patterns: readonly string[];
}

/** Connections on which SORT_RO with GET patterns failed: their loads keep to query.lua. */
const sortRefused = new WeakSet<object>();

/** The window a load reads with SORT_RO, or undefined when query.lua must answer. */
export function plainLoadWindow(
  model: ModelDescriptor,
  keys: ModelKeys,
  plan: QueryPlan,
  page: PageRequest,
  client: RedisCommands,
): LoadWindow | undefined {
  if (model.ttlMs !== undefined || model.idStrategy !== 'sequence' || plan.window || plan.order.kind !== 'id') return undefined;
  if (page.offset !== 0 || page.limit >= 0 || page.afterId || !plan.loadFields) return undefined;
  const program = plan.program;
  if (program.length !== 4 || program[0] !== 'Z') return undefined;
  const [, key, min, max] = program;
  if (typeof key !== 'string' || typeof min !== 'string' || typeof max !== 'string') return undefined;
  // SORT puts the member in place of the pattern's first '*'
  if (keys.objectPrefix.includes('*') || client.transport.isCluster || sortRefused.has(client)) return undefined;
  return { key, min, max, patterns: plan.loadFields.map((field) => `${keys.objectPrefix}*->${field}`) };
}

const ATTEMPTS = 3;

/** Where the window sits in its index: `count` members from rank `start`. */
export interface WindowRanks {
  readonly start: number;
  readonly count: number;
}

/**
 * Reads the window's objects: the flat rows of query.lua's 'load' reply (n values per object, the id first),
 * in id order; undefined when query.lua must answer (an object is due, the window kept moving, or SORT_RO was
 * refused). `ranks`: where the window is expected to sit (else a first transaction reads it).
 */
export async function loadWindow(
  client: RedisCommands,
  keys: ModelKeys,
  window: LoadWindow,
  ranks?: WindowRanks,
): Promise<unknown[] | undefined> {
  const begin = () =>
    client
      .multi()
      .zRangeWithScores(keys.expiring, 0, 0)
      .time()
      .zCount(window.key, '-inf', window.max)
      .zCount(window.key, window.min, window.max)
      .objectEncoding(window.key);
  let expected = ranks;
  let reads = 0;
  // the first transaction reads the ranks alone, unless they were given; each later one reads the rows too
  for (;;) {
    const reading = expected !== undefined && expected.count > 0;
    if (reading && reads++ === ATTEMPTS) return undefined;
    let replies: unknown[];
    try {
      replies = await (
        reading
          ? begin().sortRo(window.key, {
              BY: 'nosort',
              LIMIT: { offset: expected!.start, count: expected!.count },
              GET: [...window.patterns],
            })
          : begin()
      ).exec();
    } catch (error) {
      // Redis refused the transaction (not a lost connection, which query.lua would meet too): keep to query.lua
      if (!(error instanceof CommandError)) throw error;
      replies = [error];
    }
    const refused = replies.find((reply): reply is CommandError => reply instanceof CommandError);
    if (refused) {
      // a key of another type is no refusal of SORT_RO: query.lua names it (key-types.lua)
      if (!isWrongType(refused)) sortRefused.add(client);
      return undefined;
    }
    const [first, time, end, count, encoding, rows] = replies;
    if (dueAt(first, timeMs(time))) return undefined;
    const found = { start: Number(end) - Number(count), count: Number(count) };
    if (found.count === 0) return [];
    // SORT turns a small sorted set (listpack) into a skiplist for good, several times its memory: a small
    // index is read by query.lua instead (cheap at that size); only a skiplist is read with SORT_RO
    if (encoding !== 'skiplist') return undefined;
    if (reading && found.start === expected!.start && found.count === expected!.count) {
      return liveRows(rows as unknown[], window.patterns.length);
    }
    // first read, or a write moved the window since its ranks were read: read it where it now is
    expected = found;
  }
}

/** Whether the earliest `exp` entry (a ZRANGE 0 0 WITHSCORES reply) is due at `now` (objects.lua's sweepDue test). */
function dueAt(first: unknown, now: number): boolean {
  const entries = first as readonly unknown[];
  return entries.length > 0 && Number(entries[1]) <= now;
}

/** The rows of objects whose hash exists (a non-nil `#id`), in id order. */
function liveRows(rows: readonly unknown[], stride: number): unknown[] {
  let live: readonly unknown[] = rows;
  for (let at = 0; at < rows.length; at += stride) {
    if (rows[at] === null || rows[at] === undefined) {
      const kept: unknown[] = [];
      for (let from = 0; from < rows.length; from += stride) {
        if (rows[from] !== null && rows[from] !== undefined) for (let k = 0; k < stride; k++) kept.push(rows[from + k]);
      }
      live = kept;
      break;
    }
  }
  return sortRowsById(live, stride);
}
