import { check, median } from '../support/measure';
import type { BulkWriter, Peer, PeerName } from '../peers/peer';
import type { PostData } from './posts';
import type { Server } from './server';

/**
 * Bulk create: n posts written by each peer its fastest way (redis-record: saveMany; the others: a pipeline
 * or many creates in flight), on an empty database, the order of the peers rotating per repetition. The time
 * ends when every write is acknowledged; the count is checked after. A reference writer, when given, takes
 * its turns in the rotation like a peer.
 */
export interface BulkFigure {
  seconds: number;
  objectsPerSecond: number;
  runs: number[];
  method: string;
}

export interface BulkResult {
  n: number;
  reps: number;
  /** Posts in each writer's first run, not measured: the one-time costs of a process (heap growth, compiling). */
  warmup: number;
  results: Partial<Record<PeerName, BulkFigure>>;
  /** The reference writer's figure (bench/peers/transport-reference.ts): not a library. */
  reference?: BulkFigure & { name: string };
}

export async function bulkCreate(
  peers: readonly Peer[],
  posts: readonly PostData[],
  server: Server,
  options: { n: number; reps: number; warmup: number; log: (line: string) => void; reference?: BulkWriter },
): Promise<BulkResult> {
  const { n, reps, reference } = options;
  check(posts.length >= n, 'bulk create needs n posts');
  const writers: BulkWriter[] = reference ? [...peers, reference] : [...peers];
  const runs = new Map<BulkWriter, number[]>(writers.map((writer) => [writer, []]));
  const once = async (writer: BulkWriter, size: number): Promise<number> => {
    await server.flush();
    writer.reset(size);
    writer.prepare?.(posts, 0, size);
    const began = process.hrtime.bigint();
    await writer.bulkCreate(posts, 0, size);
    const seconds = Number(process.hrtime.bigint() - began) / 1e9;
    const stored = writer.count ? await writer.count() : await server.keyCount();
    check(stored === size, `${writer.name} holds ${stored} posts after bulk create, expected ${size}`);
    await server.flush();
    return seconds;
  };
  const warmup = Math.min(options.warmup, n);
  for (const writer of writers) await once(writer, warmup);
  for (let rep = 0; rep < reps; rep++) {
    for (let k = 0; k < writers.length; k++) {
      const writer = writers[(k + rep) % writers.length];
      const seconds = await once(writer, n);
      runs.get(writer)!.push(seconds);
      options.log(`bulk create ${rep + 1}/${reps}: ${writer.name} ${Math.round(n / seconds).toLocaleString('en-US')} posts/s`);
    }
  }
  const figure = (writer: BulkWriter): BulkFigure => {
    const seconds = median(runs.get(writer)!);
    return { seconds, objectsPerSecond: n / seconds, runs: runs.get(writer)!, method: writer.bulkMethod() };
  };
  const results: BulkResult['results'] = {};
  for (const peer of peers) results[peer.name] = figure(peer);
  return { n, reps, warmup, results, ...(reference && { reference: { name: reference.name, ...figure(reference) } }) };
}
