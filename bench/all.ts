/**
 * The benchmark suite: redis-record side by side with hand-written node-redis code, nohm and redis-om, in one
 * run, on the same seeded data and one private redis-server (emptied between libraries: it holds nothing else).
 *
 *   npm run bench                      the full suite; writes docs/benchmarks.md, docs/benchmarks/results.json,
 *                                      docs/benchmarks/chart.svg and the summary between README's markers
 *   npm run bench -- --quick           a smoke run with small sizes
 *   npm run bench -- --out <dir>       writes <dir>/benchmarks.md and <dir>/benchmarks/*, leaves README alone
 *   (--n, --bulk, --memory, --sizes 50000,500000 and --reps override the sizes)
 *
 * Workloads: Table I of the ActiveRedis paper sequential and with 50 operations in flight, bulk create, the
 * query workload of bench/query.ts (redis-record, hand-written and nohm), Redis memory per post, and last Redis's
 * CPU per single-object write against hand-written MULTI/EXEC code (bench/server-cpu.ts, in a process and on a
 * redis-server of its own; its table is printed, docs/design/server-cpu.md explains it). Table I and bulk
 * create run each library in a process of its own (bench/workloads/table-one-child.ts and writer-child.ts say
 * why); bulk create also times a reference that is not a library (bench/peers/transport-reference.ts): node-redis
 * alone sending saveMany's commands, built chunk by chunk inside the timing as saveMany builds them, which shows
 * what the client and the machine carry in the same run. Every figure in the outputs comes from the results
 * object this run builds.
 */
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'fs';
import { loadavg } from 'os';
import { join, resolve } from 'path';
import { redisServerInstalled, startPrivateRedis } from '../tools/private-redis';
import { handWrittenQueries } from './peers/hand-written-queries';
import { closeIORedis, ioredisClient } from './peers/nohm-peer';
import { Peer, PEER_NAMES, PeerName } from './peers/peer';
import { nohmQueries, recordQueries } from './peers/query-peers';
import { openSuitePeers } from './peers/suite-peers';
import { renderChart } from './report/chart-svg';
import { describeMachine } from './report/machine';
import { renderMarkdown } from './report/markdown';
import { renderSummary, updateReadme } from './report/readme-summary';
import type { SuiteResults } from './report/results';
import { judgeTargets } from './report/targets';
import { option, positiveInteger } from './support/args';
import { freshPageMicros } from './support/fresh-page-cost';
import { connectedClient, randomHex, serverName } from './support/bench-redis';
import { redisFaults } from './support/redis-faults';
import { bulkCreate } from './workloads/bulk-create';
import { SuiteWriterKind } from './workloads/bulk-writers';
import { memoryPerObject } from './workloads/memory';
import { makePosts, SUITE_SEED } from './workloads/posts';
import { makeQueryPosts } from './workloads/query-data';
import { queryWorkload } from './workloads/query-workload';
import { Server } from './workloads/server';
import { tableOne } from './workloads/table-one';
import { startTableOne, TableOneProcess } from './workloads/table-one-process';
import { startWriter, WriterProcess } from './workloads/writer-process';
import { runServerCpu } from './workloads/server-cpu-process';

const QUICK = option('quick', 'BENCH_QUICK') !== undefined;
const OUT = option('out', 'BENCH_OUT');

/** Sizes of the full suite, and of --quick. */
const SIZES = QUICK
  ? {
      n: 300,
      reps: 1,
      block: 50,
      concurrentBlock: 150,
      warmup: 50,
      bulk: 2_000,
      memory: 300,
      querySizes: [1_000],
      queryReps: 5,
      budget: 0.5,
    }
  : {
      n: 10_000,
      reps: 3,
      block: 100,
      concurrentBlock: 1_000,
      warmup: 500,
      bulk: 100_000,
      memory: 10_000,
      querySizes: [50_000, 500_000],
      queryReps: 50,
      budget: 2,
    };
const N = positiveInteger('n', 'N', SIZES.n);
const REPS = positiveInteger('reps', 'REPS', SIZES.reps);
const BULK = positiveInteger('bulk', 'BULK', SIZES.bulk);
const MEMORY = positiveInteger('memory', 'MEMORY', SIZES.memory);
const CONCURRENCY = 50;

function querySizes(): number[] {
  const raw = option('sizes', 'SIZES');
  if (raw === undefined) return SIZES.querySizes;
  const sizes = raw.split(',').map((part) => Number(part.replace(/_/g, '')));
  if (!sizes.every((size) => Number.isSafeInteger(size) && size > 0)) throw new Error(`--sizes takes positive integers, got ${raw}`);
  return [...new Set(sizes)].sort((a, b) => a - b);
}

const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  const pageAtStart = freshPageMicros();
  if (!redisServerInstalled()) throw new Error('redis-server is not on PATH: install Redis (apt-get install -y redis-server)');
  // Always a server of its own, never REDIS_URL: the suite empties its database between libraries.
  const redis = await startPrivateRedis();
  const raw = await connectedClient(redis.url);
  const server = new Server(raw, await redisFaults(raw, redis.url));
  const prefix = `bench${randomHex()}`;
  const peers: Peer[] = [];
  const nohmClient = await ioredisClient(redis.url);
  const queryClient = await connectedClient(redis.url); // the hand-written queries' own connection
  const tableOnePeers: Array<TableOneProcess<PeerName>> = [];
  const writers: Array<WriterProcess<SuiteWriterKind>> = [];
  try {
    await openSuitePeers(redis.url, prefix, peers);
    const sizes = querySizes();
    const named = await serverName(server.client);
    log(
      `benchmark suite${QUICK ? ' (quick)' : ''}: Table I ${N} posts, bulk ${BULK}, memory ${MEMORY}, queries at ${sizes.join(', ')}; ${named} at ${redis.url}`,
    );
    const data = makePosts(Math.max(N, BULK, MEMORY), SUITE_SEED, N);

    // Table I's peers each run in a process of their own too (table-one-child.ts), on the same posts.
    const tableOneData = { url: redis.url, prefix: `${prefix}t1`, posts: data.posts.length, used: N, seed: SUITE_SEED };
    for (const name of PEER_NAMES) tableOnePeers.push(await startTableOne({ kind: name, ...tableOneData }));
    const common = { n: N, reps: REPS, warmup: SIZES.warmup, log };
    const sequential = await tableOne(tableOnePeers, data, { ...common, concurrency: 1, block: SIZES.block });
    await server.flush();
    const concurrent = await tableOne(tableOnePeers, data, { ...common, concurrency: CONCURRENCY, block: SIZES.concurrentBlock });
    await server.flush();
    await Promise.all(tableOnePeers.splice(0).map((peer) => peer.close()));
    // Each writer runs in a process of its own, on the same posts (writer-child.ts). Its first full-size run
    // there pays one-time costs (the heap growing to hold a bulk load, code being optimized): redis-record's
    // measured 106,000 to 114,000 posts/s against 125,000 to 131,000 for the runs after it, in three fresh
    // processes. So the warm-up is a whole run, not measured.
    const kinds: SuiteWriterKind[] = [...peers.map((peer) => peer.name), 'reference'];
    for (const kind of kinds)
      writers.push(await startWriter({ kind, url: redis.url, prefix: `${prefix}bulk`, posts: BULK, seed: SUITE_SEED }));
    const bulk = await bulkCreate(writers, server, { n: BULK, reps: REPS, warmup: BULK, log });
    await Promise.all(writers.splice(0).map((writer) => writer.close()));
    const memory = await memoryPerObject(peers, data.posts, server, { n: MEMORY, log });
    const libraries = [recordQueries, handWrittenQueries(queryClient, prefix), nohmQueries(nohmClient, `${prefix}qnohm`)];
    const query = await queryWorkload(libraries, makeQueryPosts(sizes[sizes.length - 1], SUITE_SEED), {
      sizes,
      reps: SIZES.queryReps,
      budgetSeconds: SIZES.budget,
      log,
    });
    await server.flush();

    const args = process.argv.slice(2);
    const partial: Omit<SuiteResults, 'targets'> = {
      generatedAt: new Date().toISOString(),
      command: `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`,
      quick: QUICK,
      machine: describeMachine(named, loadAtStart, pageAtStart),
      peers: peers.map((peer) => ({ name: peer.name, version: peer.version, notes: peer.notes })),
      tableOne: { sequential, concurrent },
      bulk,
      memory,
      query,
    };
    const results: SuiteResults = { ...partial, targets: judgeTargets(partial) };
    write(results);
    console.log('');
    await runServerCpu(QUICK ? 300 : 3_000);
  } finally {
    for (const peer of peers) await peer.close();
    await Promise.all([...tableOnePeers, ...writers].map((child) => child.close()));
    await closeIORedis(nohmClient);
    await queryClient.close();
    await raw.close();
    await redis.stop();
  }
}

/** The page, the JSON and the chart under the output folder; README's summary for the default one. */
function write(results: SuiteResults): void {
  const docs = resolve(OUT ?? 'docs');
  mkdirSync(join(docs, 'benchmarks'), { recursive: true });
  writeFileSync(join(docs, 'benchmarks', 'results.json'), JSON.stringify(results, null, 2) + '\n');
  writeFileSync(join(docs, 'benchmarks', 'chart.svg'), renderChart(results));
  writeFileSync(join(docs, 'benchmarks.md'), renderMarkdown(results));
  console.log(
    `wrote ${join(docs, 'benchmarks.md')}, ${join(docs, 'benchmarks', 'results.json')}, ${join(docs, 'benchmarks', 'chart.svg')}`,
  );
  if (OUT === undefined) {
    const readme = resolve('README.md');
    console.log(
      updateReadme(readme, renderSummary(results)) ? `updated the summary in ${readme}` : `${readme} has no bench markers: left alone`,
    );
  }
  console.log('');
  for (const target of results.targets) console.log(`${target.met ? 'met    ' : 'NOT MET'}  ${target.target}: ${target.measured}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
