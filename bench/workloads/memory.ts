import { check } from '../support/measure';
import type { Peer, PeerName } from '../peers/peer';
import type { PostData } from './posts';
import type { Server } from './server';

/**
 * Redis memory per post, per peer, each alone on an empty database: the used_memory delta of writing n posts
 * divided by n; MEMORY USAGE (every element counted) of the object's own key, averaged over a sample spread
 * evenly over the posts; and MEMORY USAGE of all its other keys (the id list and index entries) divided by n.
 */
export interface PeerMemory {
  usedMemoryPerObject: number;
  objectBytes: number;
  indexBytesPerObject: number;
  objectKeysSampled: number;
  indexKeys: number;
}

export interface MemoryResult {
  n: number;
  results: Partial<Record<PeerName, PeerMemory>>;
}

const SAMPLE = 200;

export async function memoryPerObject(
  peers: readonly Peer[],
  posts: readonly PostData[],
  server: Server,
  options: { n: number; log: (line: string) => void },
): Promise<MemoryResult> {
  const { n } = options;
  const results: MemoryResult['results'] = {};
  for (const peer of peers) {
    await server.flush();
    peer.reset(n);
    const before = await server.usedMemory();
    await peer.bulkCreate(posts, 0, n);
    const after = await server.usedMemory();
    const keys = await server.keys(peer.keyPattern);
    const objects = keys.filter((key) => peer.keyRole(key) === 'object').sort();
    const others = keys.filter((key) => peer.keyRole(key) === 'index');
    check(objects.length === n, `${peer.name} has ${objects.length} object keys, expected ${n}`);
    const step = Math.max(1, Math.floor(objects.length / SAMPLE));
    let objectBytes = 0;
    let sampled = 0;
    for (let i = 0; i < objects.length && sampled < SAMPLE; i += step, sampled++) objectBytes += await server.memoryUsage(objects[i]);
    let indexBytes = 0;
    for (const key of others) indexBytes += await server.memoryUsage(key);
    results[peer.name] = {
      usedMemoryPerObject: (after - before) / n,
      objectBytes: objectBytes / sampled,
      indexBytesPerObject: indexBytes / n,
      objectKeysSampled: sampled,
      indexKeys: others.length,
    };
    options.log(`memory: ${peer.name} ${Math.round((after - before) / n)} bytes/post used_memory`);
    await server.flush();
  }
  return { n, results };
}
