import { check, median } from '../support/measure';
import { inFlight, Peer, PeerName } from '../peers/peer';
import type { PostSet } from './posts';

/**
 * Table I of the ActiveRedis paper: create, count, load, update and delete of n posts, on every peer. Each
 * step runs in blocks, every peer doing the same block in turn, the order rotating from block to block and
 * from repetition to repetition, so that machine noise hits all alike. With concurrency 1 each operation is
 * awaited before the next; above, that many are in flight per peer. count runs n times (a peer without one
 * is left out of that row).
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

export interface TableOneResult {
  n: number;
  concurrency: number;
  block: number;
  reps: number;
  operations: Array<{ operation: Operation; results: Partial<Record<PeerName, PeerTiming>> }>;
}

type Step = (peer: Peer, i: number) => Promise<unknown>;

/** Seconds each peer spent on `step` over [0, n), in rotating blocks. */
async function interleaved(peers: readonly Peer[], n: number, options: TableOneOptions, rotation: number, step: Step): Promise<number[]> {
  const seconds = peers.map(() => 0);
  for (let start = 0, block = 0; start < n; start += options.block, block++) {
    const end = Math.min(n, start + options.block);
    for (let k = 0; k < peers.length; k++) {
      const which = (k + block + rotation) % peers.length;
      const peer = peers[which];
      const began = process.hrtime.bigint();
      await inFlight(start, end, options.concurrency, (i) => step(peer, i));
      seconds[which] += Number(process.hrtime.bigint() - began) / 1e9;
    }
  }
  return seconds;
}

async function checkCount(peers: readonly Peer[], expected: number, when: string): Promise<void> {
  for (const peer of peers) {
    if (peer.count) check((await peer.count()) === expected, `${peer.name} count ${when}`);
  }
}

/** One repetition over the first n posts: every step's seconds, per peer. */
async function repetition(peers: readonly Peer[], data: PostSet, n: number, options: TableOneOptions, rotation: number) {
  const { posts, newContent } = data;
  for (const peer of peers) peer.reset(n);
  const counters = peers.filter((peer) => peer.count);
  const out = {} as Record<Operation, Map<Peer, number>>;
  const record = (operation: Operation, subset: readonly Peer[], seconds: number[]) =>
    (out[operation] = new Map(subset.map((peer, which) => [peer, seconds[which]])));

  record('create', peers, await interleaved(peers, n, options, rotation, (peer, i) => peer.create(posts[i], i)));
  record('count', counters, await interleaved(counters, n, options, rotation, (peer) => peer.count!()));
  await checkCount(peers, n, 'after create');
  record(
    'load',
    peers,
    await interleaved(peers, n, options, rotation, async (peer, i) => {
      const content = await peer.load(i);
      if (content !== posts[i].content) throw new Error(`${peer.name}: post ${i} loaded wrong content`);
    }),
  );
  record('update', peers, await interleaved(peers, n, options, rotation, (peer, i) => peer.update(newContent[i], i)));
  for (const peer of peers) check((await peer.load(0)) === newContent[0], `${peer.name} update stored`);
  record('delete', peers, await interleaved(peers, n, options, rotation, (peer, i) => peer.remove(i)));
  await checkCount(peers, 0, 'after delete');
  return out;
}

export async function tableOne(peers: readonly Peer[], data: PostSet, options: TableOneOptions): Promise<TableOneResult> {
  const { n, reps } = options;
  check(data.posts.length >= n && data.newContent.length >= n, 'Table I needs n posts and n new contents');
  await repetition(peers, data, Math.min(options.warmup, n), options, 0); // JIT, script caches; not measured
  const runs: Array<Record<Operation, Map<Peer, number>>> = [];
  for (let rep = 0; rep < reps; rep++) {
    runs.push(await repetition(peers, data, n, options, rep));
    options.log(`Table I, ${options.concurrency} in flight: repetition ${rep + 1}/${reps} done`);
  }
  const operations = OPERATIONS.map((operation) => {
    const results: Partial<Record<PeerName, PeerTiming>> = {};
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
