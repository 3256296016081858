/**
 * What creating the suite's posts costs Redis, counted in instructions by valgrind's callgrind: a count that is
 * the same whatever else the machine is doing, where CPU time on a shared machine moves by a factor of two from
 * one hour to the next. A private redis-server runs under `valgrind --tool=callgrind`; each way of creating
 * `--chunk` posts (bench/workloads/posts.ts, about 1 KB each) is sent `--rounds` times (the first not counted),
 * and Redis's instructions for it are read by zeroing callgrind's counters before and dumping them after:
 *
 * - `saveMany, MULTI`: `SuitePost.saveMany(posts)`: one draw of the ids, then one MULTI of the writes (the plain
 *   path);
 * - `saveMany, save-many.lua`: the same call for a twin of SuitePost that also declares a foreign key, left
 *   unset: the very same writes, made by one save-many.lua call, as for every model with a unique attribute or
 *   a foreign key (docs/bulk-operations.md, "How the writes are sent");
 * - `save() of each`: `SuitePost.create(...)` per post, one at a time: one create-plain.lua call each.
 *
 * The count covers all Redis does between the two reads: reading and parsing the requests, the commands and
 * scripts, the replies, and its timers (a few hundred thousand instructions in a round). Each row gives the
 * median per post and its ratio to the MULTI's.
 *
 *   npx ts-node --transpile-only --project tsconfig.json bench/script-instructions.ts [--chunk=250] [--rounds=4]
 *
 * Needs valgrind (apt-get install -y valgrind) and redis-server on PATH; takes about a minute.
 */
import 'reflect-metadata';
import { spawnSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { connect, disconnect } from '../src';
import { startPrivateRedis } from '../tools/private-redis';
import { SuitePost, suitePostAttributes } from './peers/redis-record-peer';
import { ScriptedPost } from './peers/scripted-post';
import { positiveInteger } from './support/args';
import { check, median } from './support/measure';
import { printTable } from './support/table';
import { makePosts } from './workloads/posts';

const CHUNK = positiveInteger('chunk', 'CHUNK', 250);
const ROUNDS = positiveInteger('rounds', 'ROUNDS', 4);

/** A private redis-server under callgrind (tools/private-redis.ts); `count(work)` gives the instructions `work` made it run. */
async function countingRedis(): Promise<{ url: string; count(work: () => Promise<unknown>): Promise<number>; stop(): Promise<void> }> {
  // callgrind's dumps go to a directory of their own: callgrind.out.1, .2, ... one per count
  const out = mkdtempSync(join(tmpdir(), 'redis-record-callgrind-'));
  const server = await startPrivateRedis([], undefined, {
    under: ['valgrind', '--tool=callgrind', `--callgrind-out-file=${join(out, 'callgrind.out')}`],
    startMs: 30_000,
  });
  const control = (option: string) => {
    const result = spawnSync('callgrind_control', [option, String(server.process.pid)], { encoding: 'utf8' });
    check(result.status === 0, `callgrind_control ${option} failed: ${result.stderr}`);
  };
  let dumps = 0;
  return {
    url: server.url,
    async count(work) {
      control('--zero');
      await work();
      control('--dump');
      const file = join(out, `callgrind.out.${++dumps}`);
      const totals = readFileSync(file, 'utf8').match(/^(?:summary|totals): (\d+)/m);
      check(totals !== null, `no totals in ${file}`);
      return Number(totals![1]);
    },
    async stop() {
      await server.stop();
      rmSync(out, { recursive: true, force: true });
    },
  };
}

async function main(): Promise<void> {
  const redis = await countingRedis();
  try {
    await connect({ url: redis.url, prefix: 'instructions' });
    const { posts } = makePosts(CHUNK, 17, 0);
    const ways: Record<string, () => Promise<unknown>> = {
      'saveMany, MULTI': () => SuitePost.saveMany(posts.map((post) => SuitePost.build(suitePostAttributes(post)))),
      'saveMany, save-many.lua': () => ScriptedPost.saveMany(posts.map((post) => ScriptedPost.build(suitePostAttributes(post)))),
      'save() of each': async () => {
        for (const post of posts) await SuitePost.create(suitePostAttributes(post));
      },
    };
    const names = Object.keys(ways);
    console.log(`creating ${CHUNK} suite posts each way, ${ROUNDS} rounds (the first not counted), Redis under callgrind`);
    const perPost = new Map<string, number[]>(names.map((name) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of names) {
        const instructions = await redis.count(ways[name]);
        if (round > 0) perPost.get(name)!.push(instructions / CHUNK);
      }
    }
    const stored = [await SuitePost.count(), await ScriptedPost.count()];
    check(
      stored[0] === 2 * ROUNDS * CHUNK && stored[1] === ROUNDS * CHUNK,
      `stored ${stored.join(' and ')} posts, expected ${2 * ROUNDS * CHUNK} and ${ROUNDS * CHUNK}`,
    );
    const base = median(perPost.get('saveMany, MULTI')!);
    console.log('');
    printTable(
      ['way', 'Redis instructions per post', 'against the MULTI'],
      ['left', 'right', 'right'],
      names.map((name) => {
        const value = median(perPost.get(name)!);
        return [name, Math.round(value).toLocaleString('en-US'), `${(value / base).toFixed(2)}x`];
      }),
    );
  } finally {
    await disconnect();
    await redis.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
