/**
 * Where a bulk create's time goes: the suite's bulk workload (100,000 of its posts) written by `saveMany`, as
 * the suite calls it, and by the transport reference (bench/peers/transport-reference.ts: node-redis alone
 * sending the same commands, built before the clock starts), taking turns in one process. Per run: posts/s,
 * the client's CPU per post (`process.cpuUsage()`) and Redis's main thread's (`INFO cpu`), measured by
 * callCosts. Prints every run, then a table of medians and ranges, and saveMany's share of the reference
 * round by round. The first round is a warm-up, not counted.
 *
 *   npx ts-node --transpile-only --project tsconfig.json bench/bulk-cpu.ts [--n=100000] [--rounds=9]
 *
 * A private redis-server is started unless REDIS_URL is set; keys go under fresh prefixes, removed at the end.
 */
import 'reflect-metadata';
import { connect, disconnect } from '../src';
import { SuitePost } from './peers/redis-record-peer';
import { transportReference } from './peers/transport-reference';
import { positiveInteger } from './support/args';
import { connectedClient, deleteKeys, describeRedis, randomHex, redisForRun } from './support/bench-redis';
import { CallCost, callCosts } from './support/call-costs';
import { check, median } from './support/measure';
import { printTable } from './support/table';
import { makePosts, PostData } from './workloads/posts';

const N = positiveInteger('n', 'N', 100_000);
const ROUNDS = positiveInteger('rounds', 'ROUNDS', 9);

/** Per post, in microseconds: wall time, this process's CPU, Redis's main-thread CPU (call-costs.ts). */
type Run = CallCost;

const perSecond = (run: Run) => 1e6 / run.wall;

const attributes = (post: PostData) => ({ author: post.author, topic: post.topic, content: post.content, createdAt: new Date(post.createdAt) });

async function main(): Promise<void> {
  const redis = await redisForRun();
  const raw = await connectedClient(redis.url);
  const prefix = `bulkcpu${randomHex()}`;
  const { posts } = makePosts(N, 7, 0);
  await connect({ url: redis.url, prefix });
  const referencePrefix = `${prefix}ref`;
  const reference = await transportReference(redis.url, referencePrefix);
  // both writers start from an empty key space of their own (the reference hands out ids from 1)
  const clear = async () => void (await Promise.all([deleteKeys(raw, prefix), deleteKeys(raw, referencePrefix)]));
  const runs: Record<'saveMany' | 'reference', Run[]> = { saveMany: [], reference: [] };
  console.log(`bulk create of ${N.toLocaleString('en-US')} suite posts, ${ROUNDS} rounds (the first not counted), ${describeRedis(redis.url)}`);
  try {
    for (let round = 0; round < ROUNDS; round++) {
      await clear();
      const own = await callCosts(raw, N, async () => {
        const entities = posts.map((post) => SuitePost.build(attributes(post)));
        const result = await SuitePost.saveMany(entities);
        check(result.ok, `saveMany failed ${result.failed.length} items: ${result.failed[0]?.error.message}`);
      });
      check((await SuitePost.count()) === N, 'saveMany stored fewer posts than given');
      await clear();
      reference.reset(N);
      reference.prepare?.(posts, 0, N);
      const carried = await callCosts(raw, N, () => reference.bulkCreate(posts, 0, N));
      check((await reference.count!()) === N, 'the reference stored fewer posts than given');
      const line = (name: string, run: Run) =>
        `${name} ${Math.round(perSecond(run)).toLocaleString('en-US')} posts/s, client ${run.cpu.toFixed(2)} us, Redis ${run.redis.toFixed(2)} us per post`;
      console.log(`round ${round + 1}${round === 0 ? ' (warm-up)' : ''}: ${line('saveMany', own)}; ${line('reference', carried)}`);
      if (round === 0) continue;
      runs.saveMany.push(own);
      runs.reference.push(carried);
    }
  } finally {
    await reference.close();
    await disconnect();
    await clear();
    await raw.close();
    await redis.stop();
  }
  const span = (values: number[], digits: number) =>
    `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)} to ${Math.max(...values).toFixed(digits)})`;
  const row = (name: string, list: Run[]) => [
    name,
    span(list.map((run) => perSecond(run) / 1000), 1),
    span(list.map((run) => run.cpu), 2),
    span(list.map((run) => run.redis), 2),
  ];
  printTable(
    ['writer', 'thousand posts/s', 'client CPU us/post', 'Redis CPU us/post'],
    ['left', 'right', 'right', 'right'],
    [row('saveMany (building the entities in the timing)', runs.saveMany), row('reference (arguments built before the clock)', runs.reference)],
  );
  const shares = runs.saveMany.map((run, i) => perSecond(run) / perSecond(runs.reference[i]));
  console.log(`saveMany's share of the reference, round by round: median ${(median(shares) * 100).toFixed(0)}% (${shares.map((s) => `${(s * 100).toFixed(0)}%`).join(', ')})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
