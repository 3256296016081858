/**
 * One node against a 3-master Redis Cluster: bulk create and the query workload of bench/query.ts (same seeded
 * posts, same four queries, every answer checked) for
 *   - standalone        one private redis-server, the model unsharded
 *   - cluster           a private 3-master cluster (no replicas), the model unsharded: one hash tag, one master
 *   - cluster, sharded  the same cluster, the model with @Model({ shards: 16 }): every master holds shards
 * and the spread of each cluster model over the masters (keys per master, max/min).
 *
 *   npm run bench:cluster -- [--n=50000] [--reps=20] [--shards=16] [--chunk=500] [--json [file]]
 *
 * Every server is private, started on free ports for the run and removed at the end. On a machine with few
 * cores the three masters share them with the client: the cluster's gain is capacity (memory and CPU of more
 * masters), which this shows as spread, more than speed on one small machine.
 */
import 'reflect-metadata';
import calculateSlot = require('cluster-key-slot');
import { createCluster } from 'redis';
import { Attr, BaseEntity, connect, disconnect, Index, Model } from '../src';
import { descriptorOf } from '../src/model/model-registry';
import { startPrivateCluster } from '../tools/private-cluster';
import { jsonFileOption, positiveInteger, writeJsonReport } from './support/args';
import { randomHex, redisForRun } from './support/bench-redis';
import { check, median } from './support/measure';
import { printTable } from './support/table';
import {
  Expected,
  makeQueryPosts,
  Q1_MAX,
  Q1_MIN,
  Q1_TOPIC,
  Q4_AUTHORS,
  QUERIES,
  QueryKey,
  QueryPost,
  sameNumbers,
  TOP,
} from './workloads/query-data';

const N = positiveInteger('n', 'N', 50_000);
const REPS = positiveInteger('reps', 'REPS', 20);
const SHARDS = positiveInteger('shards', 'SHARDS', 16);
const CHUNK = positiveInteger('chunk', 'CHUNK', 500);

@Model({ name: 'ClusterBenchPost' })
class PlainPost extends BaseEntity {
  @Attr({ type: 'string' }) @Index() topic!: string;
  @Attr({ type: 'number' }) @Index() @Index({ scope: 'topic' }) score!: number;
  @Attr({ type: 'string' }) authorId!: string;
  @Attr({ type: 'date' }) @Index({ scope: 'authorId' }) createdAt!: Date;
}

@Model({ name: 'ShardedClusterBenchPost', shards: SHARDS })
class ShardedPost extends BaseEntity {
  @Attr({ type: 'string' }) @Index() topic!: string;
  @Attr({ type: 'number' }) @Index() @Index({ scope: 'topic' }) score!: number;
  @Attr({ type: 'string' }) authorId!: string;
  @Attr({ type: 'date' }) @Index({ scope: 'authorId' }) createdAt!: Date;
}

type PostClass = typeof PlainPost | typeof ShardedPost;

interface Run {
  readonly setup: string;
  readonly createPerSecond: number;
  readonly queries: Record<QueryKey, number>;
  readonly spread?: { readonly keysPerMaster: number[]; readonly maxOverMin: number };
}

async function bulkCreate(model: PostClass, posts: readonly QueryPost[]): Promise<number> {
  const began = process.hrtime.bigint();
  for (let start = 0; start < posts.length; start += 10_000) {
    const entities = posts.slice(start, start + 10_000).map((post) => model.build({ ...post, createdAt: new Date(post.createdAt) }));
    const result = await model.saveMany(entities, { chunkSize: CHUNK });
    check(result.failed.length === 0, `${model.name}: ${result.failed.length} creates failed`);
  }
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  check((await model.count()) === posts.length, `${model.name}: count after bulk create`);
  return posts.length / seconds;
}

async function query(model: PostClass, key: QueryKey, rep: number, expected: Expected): Promise<void> {
  const where = { topic: Q1_TOPIC, score: { gte: Q1_MIN, lte: Q1_MAX } };
  if (key === 'Q1') {
    const ids = await model.findIds(where);
    check(ids.length === expected.q1Count, `${model.name} Q1 returned ${ids.length} ids, expected ${expected.q1Count}`);
  } else if (key === 'Q2') {
    const posts = await model.findBy(where);
    check(
      posts.length === expected.q1Count && posts.every((p) => p.topic === Q1_TOPIC && p.score >= Q1_MIN && p.score <= Q1_MAX),
      `${model.name} Q2`,
    );
  } else if (key === 'Q3') {
    const top = await model.findBy({}, { orderBy: { score: 'desc' }, limit: TOP });
    check(
      sameNumbers(
        top.map((post) => post.score),
        expected.topScores,
      ),
      `${model.name} Q3 scores differ from the data`,
    );
  } else {
    const author = Q4_AUTHORS[rep % Q4_AUTHORS.length];
    const newest = await model.findBy({ authorId: author }, { orderBy: { createdAt: 'desc' }, limit: TOP });
    check(
      sameNumbers(
        newest.map((post) => post.createdAt.getTime()),
        expected.newest(author),
      ),
      `${model.name} Q4 of ${author}`,
    );
  }
}

async function queryMedians(model: PostClass, expected: Expected): Promise<Record<QueryKey, number>> {
  const medians = {} as Record<QueryKey, number>;
  for (const { key } of QUERIES) {
    for (let rep = 0; rep < 3; rep++) await query(model, key, rep, expected);
    const samples: number[] = [];
    for (let rep = 0; rep < REPS; rep++) {
      const began = process.hrtime.bigint();
      await query(model, key, rep, expected);
      samples.push(Number(process.hrtime.bigint() - began) / 1e6);
    }
    medians[key] = median(samples);
  }
  return medians;
}

/** Keys of the model per master (SCAN of each master), in master order. */
type RawCluster = ReturnType<typeof newCluster>;
const newCluster = (rootNodes: Array<{ url: string }>) => createCluster({ rootNodes });

async function keysPerMaster(cluster: RawCluster, patterns: string[]): Promise<number[]> {
  return Promise.all(
    cluster.masters.map(async (master) => {
      const node = await cluster.nodeClient(master);
      let n = 0;
      for (const pattern of patterns) for await (const page of node.scanIterator({ MATCH: pattern, COUNT: 5000 })) n += page.length;
      return n;
    }),
  );
}

async function measure(setup: string, model: PostClass, posts: readonly QueryPost[], expected: Expected): Promise<Run> {
  console.log(`${setup}: bulk create of ${posts.length} posts...`);
  const createPerSecond = await bulkCreate(model, posts);
  console.log(`${setup}: ${Math.round(createPerSecond)} posts/s; queries...`);
  return { setup, createPerSecond, queries: await queryMedians(model, expected) };
}

async function main(): Promise<void> {
  const posts = makeQueryPosts(N, 42);
  const expected = new Expected(posts, N);
  const runs: Run[] = [];

  const single = await redisForRun();
  const prefix = `bc${randomHex()}`;
  try {
    // a warm-up under a prefix of its own, so that the first measured setup does not pay for the JIT
    const warm = makeQueryPosts(Math.min(N, 5000), 7);
    await connect({ url: single.url, prefix: `${prefix}w` });
    await bulkCreate(PlainPost, warm);
    await queryMedians(PlainPost, new Expected(warm, warm.length));
    await connect({ url: single.url, prefix });
    runs.push(await measure('standalone', PlainPost, posts, expected));
  } finally {
    await disconnect();
    await single.stop();
  }

  console.log('starting a private 3-master cluster...');
  const servers = await startPrivateCluster(3, 0);
  const raw = newCluster([...servers.rootNodes]);
  raw.on('error', () => undefined);
  try {
    await raw.connect();
    await connect({ cluster: { rootNodes: [...servers.rootNodes] }, prefix });
    for (const [setup, model] of [
      ['cluster', PlainPost],
      [`cluster, ${SHARDS} shards`, ShardedPost],
    ] as const) {
      const run = await measure(setup, model, posts, expected);
      const bases = descriptorOf(model)
        .shardKeys(prefix)
        .map((keys) => keys.base);
      const keys = await keysPerMaster(
        raw,
        bases.map((base) => `${base}:*`),
      );
      const masters = raw.masters.map((m) => `${m.host}:${m.port}`);
      const shardsPerMaster = masters.map(
        (name) =>
          bases.filter((base) => {
            const master = raw.getSlotMaster(calculateSlot(base));
            return `${master.host}:${master.port}` === name;
          }).length,
      );
      console.log(`${setup}: shards per master ${shardsPerMaster.join(' / ')}, keys per master ${keys.join(' / ')}`);
      runs.push({
        ...run,
        spread: { keysPerMaster: keys, maxOverMin: Math.min(...keys) === 0 ? Infinity : Math.max(...keys) / Math.min(...keys) },
      });
    }
  } finally {
    await disconnect();
    if (raw.isOpen) await raw.close();
    await servers.stop();
  }

  const base = runs[0];
  console.log(`\n${N} posts; query medians of ${REPS} repetitions; ratios: standalone time / this time (> 1: faster)\n`);
  printTable(
    ['setup', 'bulk create /s', ...QUERIES.map((q) => `${q.key} ms`), 'keys per master', 'max/min'],
    ['left', 'right', ...QUERIES.map(() => 'right' as const), 'right', 'right'],
    runs.map((run) => [
      run.setup,
      `${Math.round(run.createPerSecond)} (${(run.createPerSecond / base.createPerSecond).toFixed(2)}x)`,
      ...QUERIES.map((q) => `${run.queries[q.key].toFixed(2)} (${(base.queries[q.key] / run.queries[q.key]).toFixed(2)}x)`),
      run.spread ? run.spread.keysPerMaster.join(' / ') : '-',
      run.spread ? (Number.isFinite(run.spread.maxOverMin) ? run.spread.maxOverMin.toFixed(2) : 'all on one') : '-',
    ]),
  );
  console.log(`\n${QUERIES.map((q) => q.label).join('\n')}`);
  const json = jsonFileOption('cluster');
  if (json) console.log(`\nJSON: ${writeJsonReport(json, { n: N, reps: REPS, shards: SHARDS, runs })}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
