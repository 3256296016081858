import { execSync } from 'child_process';
import { createClient } from 'redis';
import { suitePeerPrefix, suitePeerPrefixes } from '../../bench/peers/suite-peers';
import { makePosts, SUITE_SEED } from '../../bench/workloads/posts';
import type { TableOneProcess } from '../../bench/workloads/table-one-process';
import { deletePrefix, keysUnder, RawClient, uniquePrefix } from '../support/test-redis';
import { transpileWorkers, TranspiledWorkers } from '../support/worker-processes/transpile';

/**
 * Table I's writer processes (bench/workloads/table-one-process.ts), each library in a Node.js process of its own,
 * against the tests' Redis: the steps run in the child on the suite's posts, the answers come back in order, a
 * failure comes back as the writer's error and leaves the process answering, and a writer that cannot start ends
 * its process. Figures are not judged here: speed is the benchmarks' business. The writers run from the
 * benchmarks compiled to JavaScript once, as their processes then cost a Node.js start and no TypeScript compile.
 */
const MADE = 60;
const USED = 24;
const { posts, newContent } = makePosts(MADE, SUITE_SEED, USED);

let raw: RawClient;
const prefix = uniquePrefix('t1p');
const started: TableOneProcess[] = [];
let compiled: TranspiledWorkers;
let startTableOne: typeof import('../../bench/workloads/table-one-process').startTableOne;

beforeAll(async () => {
  compiled = transpileWorkers('table-one', ['bench', 'tools']);
  ({ startTableOne } = require(
    compiled.script('bench/workloads/table-one-process.ts'),
  ) as typeof import('../../bench/workloads/table-one-process'));
  raw = createClient({ url: process.env.REDIS_URL });
  await raw.connect();
});

afterAll(async () => {
  await Promise.all(started.map((peer) => peer.close()));
  for (const written of suitePeerPrefixes(prefix)) await deletePrefix(raw, written);
  await raw.close();
  compiled?.remove();
});

async function start(kind: 'redis-record' | 'nohm' | 'redis-om'): Promise<TableOneProcess> {
  const peer = await startTableOne({ kind, url: process.env.REDIS_URL!, prefix, posts: MADE, used: USED, seed: SUITE_SEED });
  started.push(peer);
  return peer;
}

test.each(['redis-record', 'nohm'] as const)(
  '%s in its process creates, counts, loads, updates and deletes the suite posts',
  async (kind) => {
    const peer = await start(kind);
    expect(peer.counts).toBe(true);
    await peer.reset(USED);
    // the create with 4 in flight, the others one at a time, as Table I's two workloads run them
    expect(await peer.time('create', 0, USED, 4)).toBeGreaterThan(0);
    expect(await peer.count()).toBe(USED);
    expect(await peer.time('count', 0, 3, 1)).toBeGreaterThan(0);
    // the load step checks each content in the child; the suite reads one back
    expect(await peer.time('load', 0, USED, 1)).toBeGreaterThan(0);
    expect(await peer.load(USED - 1)).toBe(posts[USED - 1].content);
    await peer.time('update', 0, USED, 1);
    expect(await peer.load(5)).toBe(newContent[5]);
    await peer.time('delete', 0, USED, 1);
    expect(await peer.count()).toBe(0);
  },
);

test('the posts Table I writes are those of the suite: the same seed, the first `used` of them', async () => {
  const peer = await start('redis-record');
  await peer.reset(2);
  await peer.time('create', 0, 2, 1);
  const objects = (await keysUnder(raw, prefix)).filter((key) => key.includes('}:obj:'));
  const contents = await Promise.all(objects.map((key) => raw.hGet(key, 'content')));
  expect(contents.sort()).toEqual([posts[0].content, posts[1].content].sort());
  // Table I deletes the posts its load step loaded
  await peer.time('load', 0, 2, 1);
  await peer.time('delete', 0, 2, 1);
  expect(await peer.count()).toBe(0);
});

test('redis-om says it cannot count, and a step that fails comes back as its error with the process still answering', async () => {
  const peer = await start('redis-om');
  expect(peer.counts).toBe(false);
  await peer.reset(USED);
  // nothing was created: the load finds no post, and the writer's own error comes back
  await expect(peer.time('load', 0, 1, 1)).rejects.toThrow(/^redis-om: Error: redis-om: post undefined is missing/);
  await peer.time('create', 0, 3, 1);
  await peer.time('load', 0, 3, 1);
  expect(await peer.load(2)).toBe(posts[2].content);
  await peer.time('delete', 0, 3, 1);
  expect(await keysUnder(raw, suitePeerPrefix('redis-om', prefix))).toEqual([]);
});

/** The pids of this process's children, but for the shell and `ps` that list them. */
const children = () =>
  execSync(`ps -o pid=,comm= --ppid ${process.pid}`, { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.trim() !== '' && !/\b(sh|ps)$/.test(line.trim()))
    .map((line) => Number(line.trim().split(/\s+/)[0]));

test('a writer that cannot connect fails its start with the cause, and its process ends', async () => {
  const before = children();
  const failed = startTableOne({ kind: 'redis-record', url: 'redis://127.0.0.1:1', prefix, posts: MADE, used: USED, seed: SUITE_SEED });
  await expect(failed).rejects.toThrow(/redis-record Table I process: .*ECONNREFUSED/s);
  expect(children()).toEqual(before);
});
