import { check, median } from '../support/measure';
import type { PeerName } from '../peers/peer';
import type { PostSet } from './posts';
import type { TableOneProcess } from './table-one-process';

/**
 * Table I of the ActiveRedis paper: create, count, load, update and delete of n posts, on every peer. Each
 * peer runs in a process of its own (table-one-child.ts says why), which times its blocks. Each step runs in
 * blocks, every peer doing the same block in turn, the order rotating from block to block and from repetition
 * to repetition, so that machine noise hits all alike. With concurrency 1 each operation is awaited before the
 * next; above, that many are in flight per peer. count runs n times (a peer without one is left out of that
 * row).
 */
export const OPERATIONS = ['create', 'count', 'load', 'update', 'delete'] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface TableOneOptions {
  n: number;
  concurrency: number;
  /** Operations per peer per block. */
  block: number;
  reps: number;
  /** Posts per peer in the unmeasured warm-up repetition. */
  warmup: number;
  log: (line: string) => void;
}

export interface PeerTiming {
  /** Median over the repetitions, seconds for n operations. */
  seconds: number;
  opsPerSecond: number;
  runs: number[];
}

export interface TableOneResult<N extends string = PeerName> {
  n: number;
  concurrency: number;
  block: number;
  reps: number;
  operations: Array<{ operation: Operation; results: Partial<Record<N, PeerTiming>> }>;
}

/** Seconds each peer's process spent on `operation` over [0, n), in rotating blocks. */
async function interleaved(
  peers: readonly TableOneProcess[],
  n: number,
  options: TableOneOptions,
  rotation: number,
  operation: Operation,
): Promise<number[]> {
  const seconds = peers.map(() => 0);
  for (let start = 0, block = 0; start < n; start += options.block, block++) {
    const end = Math.min(n, start + options.block);
    for (let k = 0; k < peers.length; k++) {
      const which = (k + block + rotation) % peers.length;
      seconds[which] += await peers[which].time(operation, start, end, options.concurrency);
    }
  }
  return seconds;
}

async function checkCount(peers: readonly TableOneProcess[], expected: number, when: string): Promise<void> {
  for (const peer of peers) {
    if (peer.counts) check((await peer.count()) === expected, `${peer.name} count ${when}`);
  }
}

/**
 * One repetition over the first n posts: every step's seconds, per peer. The load step checks each content in
 * the peer's process, against the posts it made from the suite's seed; the update is checked here, against the
 * suite's `newContent`, so that a process whose data is not the suite's fails the run.
 */
async function repetition(
  peers: readonly TableOneProcess[],
  newContent: readonly string[],
  n: number,
  options: TableOneOptions,
  rotation: number,
) {
  for (const peer of peers) await peer.reset(n);
  const counters = peers.filter((peer) => peer.counts);
  const out = {} as Record<Operation, Map<TableOneProcess, number>>;
  const record = async (operation: Operation, subset: readonly TableOneProcess[]) => {
    const seconds = await interleaved(subset, n, options, rotation, operation);
    out[operation] = new Map(subset.map((peer, which) => [peer, seconds[which]]));
  };

  await record('create', peers);
  await record('count', counters);
  await checkCount(peers, n, 'after create');
  await record('load', peers);
  await record('update', peers);
  for (const peer of peers) check((await peer.load(0)) === newContent[0], `${peer.name} update stored`);
  await record('delete', peers);
  await checkCount(peers, 0, 'after delete');
  return out;
}

/**
 * Table I with `peers`, each in its process (startTableOne), made with the suite's posts of `data` (at least n
 * posts and new contents).
 */
export async function tableOne<N extends string>(
  peers: ReadonlyArray<TableOneProcess<N>>,
  data: PostSet,
  options: TableOneOptions,
): Promise<TableOneResult<N>> {
  const { n, reps } = options;
  check(data.posts.length >= n && data.newContent.length >= n, 'Table I needs n posts and n new contents');
  await repetition(peers, data.newContent, Math.min(options.warmup, n), options, 0); // JIT, script caches; not measured
  const runs: Array<Record<Operation, Map<TableOneProcess, number>>> = [];
  for (let rep = 0; rep < reps; rep++) {
    runs.push(await repetition(peers, data.newContent, n, options, rep));
    options.log(`Table I, ${options.concurrency} in flight: repetition ${rep + 1}/${reps} done`);
  }
  const operations = OPERATIONS.map((operation) => {
    const results: Partial<Record<N, PeerTiming>> = {};
    for (const peer of peers) {
      if (!runs[0][operation].has(peer)) continue;
      const seconds = runs.map((run) => run[operation].get(peer)!);
      const middle = median(seconds);
      results[peer.name] = { seconds: middle, opsPerSecond: n / middle, runs: seconds };
    }
    return { operation, results };
  });
  return { n, concurrency: options.concurrency, block: options.block, reps, operations };
}
