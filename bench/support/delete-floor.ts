/**
 * How far the suite's sequential delete is from the fastest delete of one round trip that still removes a post's
 * entries with it: Table I's sequential workload (bench/workloads/table-one.ts, its sizes, rotation and data, each
 * writer in a process of its own as in the suite) with the suite's four libraries and the two writers of
 * bench/peers/floor-writers.ts that are no library: the script remove() sends, called directly, and a Redis
 * function making the delete's five commands alone (the floor). Prints each repetition's delete row and the
 * medians, as ops/s and times nohm's. For finding costs, not for publishing figures (npm run bench is that).
 *
 *   npx ts-node --transpile-only --project tsconfig.json bench/support/delete-floor.ts [--n 10000] [--reps 3]
 */
import 'reflect-metadata';
import { createClient } from 'redis';
import { FLOOR_KINDS } from '../peers/floor-writers';
import { PEER_NAMES } from '../peers/peer';
import { suitePeerPrefixes } from '../peers/suite-peers';
import { median } from './measure';
import { makePosts, SUITE_SEED } from '../workloads/posts';
import { tableOne } from '../workloads/table-one';
import { startTableOne, TableOneProcess } from '../workloads/table-one-process';
import { positiveInteger } from './args';
import { forgetPrefix, randomHex, redisForRun } from './bench-redis';

const N = positiveInteger('n', 'N', 10_000);
const REPS = positiveInteger('reps', 'REPS', 3);
/** The suite makes the posts of its largest workload (bulk create), and Table I's from the same stream. */
const SUITE_POSTS = 100_000;

async function main(): Promise<void> {
  const redis = await redisForRun();
  const prefix = `floor${randomHex()}`;
  const cleaner = createClient({ url: redis.url, commandOptions: { timeout: 0 } });
  await cleaner.connect();
  const writers: TableOneProcess[] = [];
  try {
    const posts = Math.max(N, SUITE_POSTS);
    for (const kind of [...PEER_NAMES, ...FLOOR_KINDS])
      writers.push(await startTableOne({ kind, url: redis.url, prefix, posts, used: N, seed: SUITE_SEED }));
    const data = makePosts(posts, SUITE_SEED, N);
    // the suite's sequential Table I (bench/all.ts): blocks of 100, 500 posts of warm-up
    const options = { n: N, reps: REPS, warmup: 500, concurrency: 1, block: 100, log: () => undefined };
    const result = await tableOne(writers, data, options);
    const deletes = result.operations.find((row) => row.operation === 'delete')!.results;
    const rate = (name: string, rep: number) => N / deletes[name]!.runs[rep];
    const row = (label: string, of: (name: string) => number) => {
      const each = writers.map(
        ({ name }) => `${name} ${Math.round(of(name)).toLocaleString('en-US')}/s (${(of(name) / of('nohm')).toFixed(2)}x)`,
      );
      return `${label}: ${each.join(', ')}`;
    };
    for (let rep = 0; rep < REPS; rep++) console.log(row(`delete, repetition ${rep + 1}`, (name) => rate(name, rep)));
    console.log(row('delete, medians', (name) => N / median(deletes[name]!.runs)));
  } finally {
    // each writer's close deletes a floor writer's keys and function; the libraries' keys go here
    await Promise.all(writers.map((writer) => writer.close()));
    for (const written of suitePeerPrefixes(prefix)) await forgetPrefix(cleaner, written);
    await cleaner.close();
    await redis.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
