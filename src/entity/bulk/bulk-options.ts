import { describeValue } from '../../util/describe-value';
import { ArgumentError } from '../../errors/errors';

/**
 * New objects per chunk of saveMany (one script call, or one MULTI), unless told otherwise. With
 * CREATES_IN_FLIGHT chunks in flight, 750 objects are on their way at once; see CREATES_IN_FLIGHT for why
 * not more.
 */
export const SAVE_CHUNK_SIZE = 250;

/**
 * Chunks of new objects in flight at once: Redis applies one while the next ones are encoded and sent. Not
 * four of 500: a node-redis command lives from the chunk's send to its reply, and with 2,000 objects (some
 * 2,000 commands) in flight most of them were still alive at each young-generation collection. V8 then
 * allocates node-redis's command records straight into the old generation, where each one, though soon dead,
 * keeps the strings it points to alive through every young collection until the next full one. Measured with
 * 100,000 posts of about 1 KB, one Node.js process per run, interleaved: with four chunks of 500 that happened
 * in 10 processes of 10, with two of 250 in 1 of 14 (client CPU 10.7 against 8.7 us per post, posts/s
 * 82,400 against 90,800), with three of 250 in 3 of 5. Since a plain create sends its small first chunks
 * (RAMP_CHUNKS), the window no longer decides that: three of 250 took the slow mode in 0 processes of 16 and
 * made about 4% more posts/s than two (medians about 122,000 against 117,000 in the same interleaved runs);
 * two of 500 ran like three of 250, with twice the time Redis spends on each chunk.
 */
export const CREATES_IN_FLIGHT = 3;

/** Objects per chunk of a plain bulk create's first chunks, sent one at a time (RAMP_CHUNKS says why). */
export const RAMP_CHUNK_SIZE = 40;

/**
 * Small chunks a plain bulk create of more than one chunk sends one at a time, before its window of
 * CREATES_IN_FLIGHT chunks. V8 decides once per allocation site whether to allocate its objects straight in
 * the old generation: at the first young-generation collection after 100 or more of them were made, if 85% or
 * more are still alive. For node-redis's command records that is decided by the process's first burst of
 * commands. When a bulk load is that burst and a collection falls inside its first window, every record made
 * since the last collection is still awaiting its reply, and the records (with what they point to) are
 * allocated in the old generation for the life of the process (see CREATES_IN_FLIGHT for the cost). Four
 * chunks of 40 (under 100 commands each for most models), done before the window opens, leave enough
 * finished records among those of any such collection. Measured with 100,000 posts, seven runs in each
 * fresh Node.js process, two chunks in flight: without these chunks the records were pretenured (about 35 MB
 * more promoted per run, 8 to 12 us of client CPU per post instead of 6.5 to 7) in 7 processes of 28; with
 * them in none of 32 (one of the 32 was slow another way, promoting far more; its cause was not found). The
 * processes that escaped ran alike either way (about 115,000 posts/s).
 */
export const RAMP_CHUNKS = 4;

/**
 * The small first chunks of a plain bulk create of `count` objects in chunks of `chunkSize`: how many of the
 * objects they hold (none for a call of one chunk or less) and how many each holds.
 */
export function firstChunks(count: number, chunkSize: number): { objects: number; size: number } {
  const size = Math.min(RAMP_CHUNK_SIZE, chunkSize);
  return { objects: count > chunkSize ? Math.min(count, RAMP_CHUNKS * size) : 0, size };
}

/**
 * Changes to loaded objects of a model that claims unique values object by object (a sharded model with a
 * unique attribute: claimed-write.ts), one save.lua call each, under way at once in saveMany. All at once,
 * 100,000 updates of the suite's posts held about 420 MB of commands and promises at the peak and took 27 to
 * 29 us of client CPU each; 250 at a time, about 36 MB and 13 to 14 us, and 40,600 to 44,400 updates/s
 * against 30,900 to 35,200 (Redis running the scripts sets the pace from about 250 on).
 */
export const UPDATES_IN_FLIGHT = 250;

/**
 * Chunks of changes to loaded objects (one update-many.lua call each) under way at once in saveMany: Redis
 * applies one while the next is encoded and sent, as for CREATES_IN_FLIGHT.
 */
export const UPDATE_CHUNKS_IN_FLIGHT = 3;

/** Transactions of a findMany given a chunkSize awaiting Redis at once: one is applied while the next is sent. */
export const READS_IN_FLIGHT = 2;

/** Ids per transaction of removeMany, unless told otherwise. */
export const REMOVE_CHUNK_SIZE = 500;

/** Above this, one call would keep Redis busy (and every other client waiting) for too long. */
export const MAX_CHUNK_SIZE = 10_000;

/** The chunkSize option, checked: a whole number from 1 to 10,000, or `fallback` when none is given. */
export function chunkSizeOption(operation: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_CHUNK_SIZE) {
    throw new ArgumentError(`${operation}: chunkSize must be a whole number from 1 to ${MAX_CHUNK_SIZE}, got ${describeValue(value)}`);
  }
  return value;
}
