import { existsSync, readFileSync } from 'fs';
import { dirname, join } from 'path';
import type { PostData } from '../workloads/posts';

/** The libraries the suite compares, in the order the report shows them; redis-record first. */
export const PEER_NAMES = ['redis-record', 'hand-written', 'nohm', 'redis-om'] as const;
export type PeerName = (typeof PEER_NAMES)[number];

/** How a peer's keys divide, for the memory workload: the object itself, or the entries that index it. */
export type KeyRole = 'object' | 'index';

/**
 * One library doing the suite's post workloads. Each keeps the ids it was given, by the post's position `i`
 * in the data, so that the load, update and delete steps address the posts the create step wrote.
 */
export interface Peer {
  readonly name: PeerName;
  /** The package version measured (for hand-written code: the node-redis it uses). */
  readonly version: string;
  /** How the report describes the way this peer writes and what it indexes. */
  readonly notes: string;
  /** Forgets the ids of a previous run (the data is gone: deleted or flushed). */
  reset(size: number): void;
  create(post: PostData, i: number): Promise<void>;
  /** How many posts are stored; undefined when the library has no way to count without a module. */
  readonly count?: () => Promise<number>;
  /** Loads post `i` and returns its content, for the check. */
  load(i: number): Promise<string>;
  /** Changes the content of post `i` (after load(i)). */
  update(content: string, i: number): Promise<void>;
  remove(i: number): Promise<void>;
  /** Creates posts [from, to): the library's fastest way of writing many objects. */
  bulkCreate(posts: readonly PostData[], from: number, to: number): Promise<void>;
  /** What the bulk create used (saveMany, a pipeline, creates in flight...). */
  bulkMethod(): string;
  /** The pattern (for SCAN MATCH) of every key this peer writes. */
  readonly keyPattern: string;
  /** The role of one of its keys. */
  keyRole(key: string): KeyRole;
  close(): Promise<void>;
}

/**
 * What Table I needs of whatever it times (bench/workloads/table-one.ts): a peer, or a writer that is no library,
 * under a name of its own.
 */
export type TableOneWriter = Pick<Peer, 'reset' | 'create' | 'count' | 'load' | 'update' | 'remove' | 'close'> & { readonly name: string };

/**
 * What the bulk workload needs of whatever it times: a peer, or the transport reference. `prepare` runs before
 * the clock starts, for work the timing must leave out.
 */
export type BulkWriter = Pick<Peer, 'reset' | 'bulkCreate' | 'count' | 'bulkMethod'> & {
  readonly name: string;
  prepare?(posts: readonly PostData[], from: number, to: number): void;
};

/**
 * Runs `task(i)` for i in [from, to) with at most `concurrency` in flight (1: each awaited before the next).
 * Rejects with the first failure.
 */
export async function inFlight(from: number, to: number, concurrency: number, task: (i: number) => Promise<unknown>): Promise<void> {
  if (concurrency <= 1) {
    for (let i = from; i < to; i++) await task(i);
    return;
  }
  let next = from;
  const lane = async () => {
    while (next < to) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, to - from) }, lane));
}

/** The version field of an installed package's package.json. */
export function packageVersion(name: string): string {
  return (require(`${name}/package.json`) as { version: string }).version;
}

/** redis-record's own version: the package.json of the repository, found upwards from this file (or its transpiled copy). */
export function ownVersion(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (json.name === 'redis-record') return json.version;
    }
    if (dirname(dir) === dir) return 'unknown';
  }
}
