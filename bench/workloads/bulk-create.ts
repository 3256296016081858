import { check, median } from '../support/measure';
import type { Peer, PeerName } from '../peers/peer';
import type { PostData } from './posts';
import type { Server } from './server';

/**
 * Bulk create: n posts written by each peer its fastest way (redis-record: saveMany; the others: a pipeline
 * or many creates in flight), on an empty database, the order of the peers rotating per repetition. The time
 * ends when every write is acknowledged; the count is checked after.
 */
export interface BulkResult {
  n: number;
  reps: number;
  results: Partial<Record<PeerName, { seconds: number; objectsPerSecond: number; runs: number[]; method: string }>>;
}

export async function bulkCreate(
  peers: readonly Peer[],
  posts: readonly PostData[],
  server: Server,
  options: { n: number; reps: number; warmup: number; log: (line: string) => void },
): Promise<BulkResult> {
  const { n, reps } = options;
  check(posts.length >= n, 'bulk create needs n posts');
  const runs = new Map<Peer, number[]>(peers.map((peer) => [peer, []]));
  const once = async (peer: Peer, size: number): Promise<number> => {
    await server.flush();
    peer.reset(size);
    const began = process.hrtime.bigint();
    await peer.bulkCreate(posts, 0, size);
    const seconds = Number(process.hrtime.bigint() - began) / 1e9;
    const stored = peer.count ? await peer.count() : await server.keyCount();
    check(stored === size, `${peer.name} holds ${stored} posts after bulk create, expected ${size}`);
    await server.flush();
    return seconds;
  };
  for (const peer of peers) await once(peer, Math.min(options.warmup, n));
  for (let rep = 0; rep < reps; rep++) {
    for (let k = 0; k < peers.length; k++) {
      const peer = peers[(k + rep) % peers.length];
      const seconds = await once(peer, n);
      runs.get(peer)!.push(seconds);
      options.log(`bulk create ${rep + 1}/${reps}: ${peer.name} ${Math.round(n / seconds).toLocaleString('en-US')} posts/s`);
    }
  }
  const results: BulkResult['results'] = {};
  for (const peer of peers) {
    const seconds = median(runs.get(peer)!);
    results[peer.name] = { seconds, objectsPerSecond: n / seconds, runs: runs.get(peer)!, method: peer.bulkMethod() };
  }
  return { n, reps, results };
}
