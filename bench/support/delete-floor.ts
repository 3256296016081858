/**
 * How far the suite's sequential delete is from the fastest delete of one round trip that still removes a post's
 * entries with it: Table I's sequential workload (bench/workloads/table-one.ts, its sizes and rotation, the suite's
 * data held in the process as the suite holds it) with the suite's four libraries and two writers that are no
 * library. Both write their posts on redis-record's key layout with one MULTI each, and delete one post with one
 * call:
 *   script    the script redis-record's remove() sends for the suite's post (remove-indexed.lua, bound to its
 *             indexes), sent as Script.run sends it: what remove() costs without the library around the call
 *   function  a Redis function (FCALL, Redis 7 and later) making the read and the four writes alone (HMGET,
 *             ZREM, SREM, ZREM, DEL): no check of any key's type, no script body run again per call. No delete
 *             that finds the entries from the stored values gets through Redis in less.
 * Prints each repetition's delete row and the medians, as ops/s and times nohm's. For finding costs, not for
 * publishing figures (npm run bench is that).
 *
 *   npx ts-node --transpile-only --project tsconfig.json bench/support/delete-floor.ts [--n 10000] [--reps 3]
 */
import 'reflect-metadata';
import { createClient } from 'redis';
import { indexedRemovalScript } from '../../src/mapper/indexed-removal';
import { descriptorOf } from '../../src/metadata/model-registry';
import { RedisCommands } from '../../src/connection/redis-commands';
import { Peer } from '../peers/peer';
import { SuitePost } from '../peers/redis-record-peer';
import { openSuitePeers, suitePeerPrefixes } from '../peers/suite-peers';
import { median } from './measure';
import { makePosts, PostData, SUITE_SEED } from '../workloads/posts';
import { tableOne } from '../workloads/table-one';
import { positiveInteger } from './args';
import { deleteKeys, forgetPrefix, randomHex, redisForRun } from './bench-redis';

const N = positiveInteger('n', 'N', 10_000);
const REPS = positiveInteger('reps', 'REPS', 3);
/** The suite holds the posts of its largest workload (bulk create) for the whole run; so does this. */
const HELD_POSTS = 100_000;

/** The function's body: the read and the four writes, nothing else. */
const FLOOR_FUNCTION = `local values = redis.call('HMGET', keys[2], 'topic')
local listed = redis.call('ZREM', keys[1], args[1])
if values[1] then redis.call('SREM', keys[3] .. ':idx:topic:' .. values[1], args[1]) end
redis.call('ZREM', keys[3] .. ':idx:createdAt', args[1])
redis.call('DEL', keys[2])
return listed`;

type FloorKind = 'script' | 'function';

/** A writer that is no library, named as the report names it: a Peer but for its name. */
type Writer = Omit<Peer, 'name'> & { readonly name: string };

async function floorWriter(url: string, prefix: string, kind: FloorKind): Promise<Writer> {
  const client = createClient({ url, commandOptions: { timeout: 0 } });
  client.on('error', (error) => console.error(`${kind} client:`, error.message));
  await client.connect();
  const base = `${prefix}:{FloorPost}`;
  const all = `${base}:all`;
  const object = (id: string) => `${base}:obj:${id}`;
  const library = `floor${randomHex()}`;
  if (kind === 'function') {
    const source = `#!lua name=${library}\nredis.register_function('${library}', function(keys, args)\n${FLOOR_FUNCTION}\nend)`;
    await client.sendCommand(['FUNCTION', 'LOAD', source]);
  }
  const script = indexedRemovalScript(descriptorOf(SuitePost).indexes);
  let ids: string[] = [];
  let sequence = 0;
  return {
    name: kind,
    version: '',
    notes: '',
    keyPattern: `${base}:*`,
    keyRole: (key) => (key.startsWith(`${base}:obj:`) ? 'object' : 'index'),
    reset(size) {
      ids = new Array(size);
    },
    async create(post: PostData, i: number) {
      const id = String(++sequence);
      await client
        .multi()
        .hSet(object(id), { author: post.author, topic: post.topic, content: post.content, createdAt: String(post.createdAt) })
        .zAdd(all, { score: sequence, value: id })
        .sAdd(`${base}:idx:topic:${post.topic}`, id)
        .zAdd(`${base}:idx:createdAt`, { score: post.createdAt, value: id })
        .exec();
      ids[i] = id;
    },
    count: () => client.zCard(all),
    load: async (i) => (await client.hGet(object(ids[i]), 'content')) ?? '',
    update: async (content, i) => void (await client.hSet(object(ids[i]), 'content', content)),
    async remove(i) {
      const id = ids[i];
      if (kind === 'function') await client.sendCommand(['FCALL', library, '3', all, object(id), base, id]);
      else await script.run(client as unknown as RedisCommands, [all, object(id), base], [id]);
    },
    bulkCreate: () => Promise.reject(new Error(`${kind}: no bulk create`)),
    bulkMethod: () => '',
    async close() {
      await deleteKeys(client, prefix);
      if (kind === 'function') await client.sendCommand(['FUNCTION', 'DELETE', library]);
      await client.close();
    },
  };
}

async function main(): Promise<void> {
  const redis = await redisForRun();
  const prefix = `floor${randomHex()}`;
  const cleaner = createClient({ url: redis.url, commandOptions: { timeout: 0 } });
  await cleaner.connect();
  const writers: Writer[] = [];
  try {
    await openSuitePeers(redis.url, prefix, writers);
    writers.push(await floorWriter(redis.url, `${prefix}script`, 'script'));
    writers.push(await floorWriter(redis.url, `${prefix}function`, 'function'));
    const data = makePosts(Math.max(N, HELD_POSTS), SUITE_SEED, N);
    // the suite's sequential Table I (bench/all.ts): blocks of 100, 500 posts of warm-up
    const options = { n: N, reps: REPS, warmup: 500, concurrency: 1, block: 100, log: () => undefined };
    // tableOne keys its rows by the writer's name, and 'script' and 'function' are no library's (PeerName)
    const result = await tableOne(writers as unknown as Peer[], data, options);
    const deletes = result.operations.find((row) => row.operation === 'delete')!.results as Record<string, { runs: number[] }>;
    const rate = (name: string, rep: number) => N / deletes[name].runs[rep];
    const row = (label: string, of: (name: string) => number) => {
      const each = writers.map(({ name }) => `${name} ${Math.round(of(name)).toLocaleString('en-US')}/s (${(of(name) / of('nohm')).toFixed(2)}x)`);
      return `${label}: ${each.join(', ')}`;
    };
    for (let rep = 0; rep < REPS; rep++) console.log(row(`delete, repetition ${rep + 1}`, (name) => rate(name, rep)));
    console.log(row('delete, medians', (name) => N / median(deletes[name].runs)));
  } finally {
    for (const writer of writers) await writer.close();
    for (const written of suitePeerPrefixes(prefix)) await forgetPrefix(cleaner, written);
    await cleaner.close();
    await redis.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
