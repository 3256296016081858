/**
 * Query benchmark: redis-record against nohm 3 on the same posts, in one run, on one Redis.
 *
 *   npm run bench:query -- [--sizes 50000,500000] [--reps 100] [--budget 4] [--batch 1000] [--settle 6] [--json [file]]
 *   (or SIZES=... REPS=... BUDGET=... BATCH=... SETTLE=... BENCH_JSON=file in the environment)
 *
 * Posts: topic among t0..t9, score 0..999, authorId among a0..a499, createdAt distinct (one second apart), all
 * from a seeded generator so both libraries hold the very same data. The sizes are reached by loading more
 * posts on top of the previous size (the first 50,000 posts of the 500,000 are the 50,000 of the first size).
 *
 * Queries (each library answers with what it offers for it):
 *   Q1 topic = 't3' AND 100 <= score <= 200, ids       redis-record findIds        nohm find
 *   Q2 the same, objects                                 redis-record findBy         nohm findAndLoad
 *   Q3 top 20 by score desc, objects                     redis-record findBy orderBy nohm sort + loadMany
 *   Q4 newest 20 posts of one author, objects            redis-record findBy on the  nohm find + sort(ids) +
 *                                                        createdAt index scoped by   loadMany
 *                                                        authorId
 * Then, for each size, the kinds nohm has no query for (K1 notIn, K2 exists, K3 a keyset page 1,000 deep, K4
 * countBy; K5 hasAny, K6 hasAll, K7 a compound index's window in its order, on a tagged copy of the posts; C1 a
 * many-to-many's findBy, C2 an ordered list's page, C3 its push and C4 its move, on items holding the posts'
 * topic and createdAt), each against the hand-written node-redis commands on redis-record's keys
 * (workloads/query-kinds.ts, workloads/tag-compound-kinds.ts and workloads/collection-kinds.ts).
 * Each query runs the two libraries alternately, `reps` times each, or fewer when a library has spent `budget`
 * seconds on it (never fewer than 5); every answer is checked against the data, outside the timed call: Q1 and
 * Q2 must name exactly the posts the data says (mapped back from each library's ids to the posts it loaded, so
 * both libraries return the same posts), Q3 the top scores, Q4 the author's newest posts.
 *
 * A private redis-server is started unless REDIS_URL is set. Each library writes under its own fresh prefix;
 * both are removed at the end.
 */
import 'reflect-metadata';
import { Nohm } from 'nohm';
import { Attr, BaseEntity, connect, disconnect, Index, Model } from '../src';
import { jsonFileOption, option, positiveNumber, writeJsonReport } from './support/args';
import {
  Client,
  connectedClient,
  deleteKeys,
  describeRedis,
  forgetPrefix,
  randomHex,
  redisForRun,
  serverName,
} from './support/bench-redis';
import { nohmIORedis, nohmIORedisVersion } from './peers/nohm-peer';
import { redisCpu } from './support/call-costs';
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
import { kindWorkloads, measureKinds } from './workloads/query-kinds';
import { tagCompoundWorkloads } from './workloads/tag-compound-kinds';
import { collectionWorkloads } from './workloads/collection-kinds';

const IORedis = nohmIORedis();

// ---------------------------------------------------------------------------------------------- options

function sizesOption(): number[] {
  const raw = option('sizes', 'SIZES') ?? '50000,500000';
  const sizes = raw.split(',').map((part) => Number(part.replace(/_/g, '')));
  for (const size of sizes) {
    if (!Number.isSafeInteger(size) || size <= 0) throw new Error(`--sizes takes positive integers, got ${raw}`);
  }
  return [...new Set(sizes)].sort((a, b) => a - b);
}

const SIZES = sizesOption();
const REPS = Math.round(positiveNumber('reps', 'REPS', 100));
const BUDGET_SECONDS = positiveNumber('budget', 'BUDGET', 4);
const BATCH = Math.round(positiveNumber('batch', 'BATCH', 1000));
const MIN_REPS = 5;
const WARMUP_REPS = 3;
const SETTLE_SECONDS = positiveNumber('settle', 'SETTLE', 6);
const JSON_FILE = jsonFileOption('query');

// ---------------------------------------------------------------------------------------------- data

// The posts and the four queries are the benchmark suite's (bench/workloads/query-data.ts): the same data and
// the same answers in both.

/**
 * One library: how it loads posts and answers each query (the timed part), and how its answer is checked
 * against `expected` (not timed). `postOf` maps the library's ids back to the generated posts.
 */
interface Library {
  readonly label: string;
  load(posts: QueryPost[], from: number, to: number): Promise<void>;
  query(key: QueryKey, rep: number): Promise<unknown>;
  check(key: QueryKey, rep: number, answer: unknown, expected: Expected): void;
}

/** Checks that `ids` name exactly the posts Q1 must return. */
function checkPosts(label: string, key: QueryKey, ids: readonly string[], postOf: ReadonlyMap<string, number>, expected: Expected): void {
  const found = ids.map((id) => postOf.get(String(id)) ?? -1).sort((a, b) => a - b);
  check(sameNumbers(found, expected.q1Posts), `${label} ${key} returned ${ids.length} posts, not the ${expected.q1Count} the data holds`);
}

// ---------------------------------------------------------------------------------------------- redis-record

@Model({ name: 'QueryBenchPost' })
class RecordPost extends BaseEntity {
  @Attr() @Index() topic!: string;
  // The plain index serves "top 20 by score"; the one scoped by topic is a composite (topic, score) index that
  // answers "topic = t3 AND score 100..200" from one sorted set.
  @Attr() @Index() @Index({ scope: 'topic' }) score!: number;
  @Attr() authorId!: string;
  @Attr() @Index({ scope: 'authorId' }) createdAt!: Date;
}

function checkObjects(label: string, posts: Array<{ topic: string; score: number }>): void {
  for (const post of posts) {
    check(post.topic === Q1_TOPIC && post.score >= Q1_MIN && post.score <= Q1_MAX, `${label} Q2 returned a post outside the where`);
  }
}

const recordPostOf = new Map<string, number>();
const Q1_WHERE = { topic: Q1_TOPIC, score: { gte: Q1_MIN, lte: Q1_MAX } };

const redisRecord: Library = {
  label: 'redis-record',
  async load(posts, from, to) {
    for (let start = from; start < to; start += BATCH) {
      const batch: Promise<unknown>[] = [];
      for (let i = start; i < Math.min(to, start + BATCH); i++) {
        const post = posts[i];
        batch.push(RecordPost.create({ ...post, createdAt: new Date(post.createdAt) }).then((created) => recordPostOf.set(created.id, i)));
      }
      await Promise.all(batch);
    }
  },
  query(key, rep) {
    if (key === 'Q1') return RecordPost.findIds(Q1_WHERE);
    if (key === 'Q2') return RecordPost.findBy(Q1_WHERE);
    if (key === 'Q3') return RecordPost.findBy({}, { orderBy: { score: 'desc' }, limit: TOP });
    return RecordPost.findBy({ authorId: Q4_AUTHORS[rep % Q4_AUTHORS.length] }, { orderBy: { createdAt: 'desc' }, limit: TOP });
  },
  check(key, rep, answer, expected) {
    if (key === 'Q1') checkPosts('redis-record', key, answer as string[], recordPostOf, expected);
    else if (key === 'Q2') {
      const posts = answer as RecordPost[];
      checkPosts(
        'redis-record',
        key,
        posts.map((post) => post.id!),
        recordPostOf,
        expected,
      );
      checkObjects('redis-record', posts);
    } else if (key === 'Q3') {
      const top = answer as RecordPost[];
      check(
        sameNumbers(
          top.map((post) => post.score),
          expected.topScores,
        ),
        'redis-record Q3 scores differ from the data',
      );
    } else {
      const author = Q4_AUTHORS[rep % Q4_AUTHORS.length];
      check(
        sameNumbers(
          (answer as RecordPost[]).map((post) => post.createdAt.getTime()),
          expected.newest(author),
        ),
        `redis-record Q4 createdAt of ${author} differ from the data`,
      );
    }
  },
};

// ---------------------------------------------------------------------------------------------- nohm

interface NohmPostProps {
  topic: string;
  score: number;
  authorId: string;
  createdAt: number;
}

function nohmLibrary(): Library {
  const Post = Nohm.model('QueryBenchPost', {
    properties: {
      topic: { type: 'string', index: true },
      score: { type: 'integer', index: true },
      authorId: { type: 'string', index: true },
      createdAt: { type: 'timestamp', index: true },
    },
    idGenerator: 'increment', // sequence ids, as redis-record's
  });
  const props = (models: Array<{ allProperties(): unknown }>) => models.map((model) => model.allProperties() as NohmPostProps);
  const range = { min: Q1_MIN, max: Q1_MAX, endpoints: '[]' as const };
  const postOf = new Map<string, number>();
  return {
    label: 'nohm',
    async load(posts, from, to) {
      for (let start = from; start < to; start += BATCH) {
        const batch: Promise<unknown>[] = [];
        for (let i = start; i < Math.min(to, start + BATCH); i++) {
          const model = new Post();
          model.property(posts[i] as unknown as Record<string, unknown>);
          batch.push(model.save().then(() => postOf.set(String(model.id), i)));
        }
        await Promise.all(batch);
      }
    },
    async query(key, rep) {
      if (key === 'Q1') return Post.find({ topic: Q1_TOPIC, score: range });
      if (key === 'Q2') return Post.findAndLoad({ topic: Q1_TOPIC, score: range });
      if (key === 'Q3') {
        const ids = await Post.sort({ field: 'score', direction: 'DESC', limit: [0, TOP] });
        return Post.loadMany(ids);
      }
      const ids = await Post.find({ authorId: Q4_AUTHORS[rep % Q4_AUTHORS.length] });
      const newestIds = await Post.sort({ field: 'createdAt', direction: 'DESC', limit: [0, TOP] }, ids);
      return Post.loadMany(newestIds);
    },
    check(key, rep, answer, expected) {
      type Loaded = Array<{ id: unknown; allProperties(): unknown }>;
      if (key === 'Q1') checkPosts('nohm', key, (answer as unknown[]).map(String), postOf, expected);
      else if (key === 'Q2') {
        const found = answer as Loaded;
        checkPosts(
          'nohm',
          key,
          found.map((model) => String(model.id)),
          postOf,
          expected,
        );
        checkObjects('nohm', props(found));
      } else if (key === 'Q3') {
        check(
          sameNumbers(
            props(answer as Loaded).map((post) => post.score),
            expected.topScores,
          ),
          'nohm Q3 scores differ from the data',
        );
      } else {
        const author = Q4_AUTHORS[rep % Q4_AUTHORS.length];
        check(
          sameNumbers(
            props(answer as Loaded).map((post) => Number(post.createdAt)),
            expected.newest(author),
          ),
          `nohm Q4 createdAt of ${author} differ from the data`,
        );
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------- measuring

interface Stats {
  reps: number;
  medianMs: number;
  p95Ms: number;
  meanMs: number;
  /** Median CPU time per call of this process and of Redis's main thread: steadier than wall time when the
   *  machine is busy (a loaded machine delays every wake-up of the client and of the server). */
  nodeCpuUs: number;
  redisCpuUs: number;
}

interface Sample {
  ms: number;
  nodeCpuUs: number;
  redisCpuUs: number;
}

function stats(samples: Sample[]): Stats {
  const sorted = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)];
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return {
    reps: sorted.length,
    medianMs: median(sorted),
    p95Ms: p95,
    meanMs: mean,
    nodeCpuUs: median(samples.map((sample) => sample.nodeCpuUs)),
    redisCpuUs: median(samples.map((sample) => sample.redisCpuUs)),
  };
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const began = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - began) / 1e6;
}

/**
 * Runs one query on every library, alternately (the order flipping each round) so that machine noise hits all
 * alike; a library stops at REPS samples or once it has spent BUDGET_SECONDS (and has at least MIN_REPS).
 */
async function measure(libraries: readonly Library[], key: QueryKey, expected: Expected, raw: Client): Promise<Stats[]> {
  for (const library of libraries) {
    for (let rep = 0; rep < WARMUP_REPS; rep++) library.check(key, rep, await library.query(key, rep), expected);
  }
  // What the two INFO calls around a call cost Redis by themselves: subtracted from every reading
  const idle: number[] = [];
  for (let i = 0; i < 21; i++) {
    const before = await redisCpu(raw);
    idle.push(((await redisCpu(raw)) - before) * 1e6);
  }
  const infoCpuUs = median(idle);
  const samples: Sample[][] = libraries.map(() => []);
  const spent = libraries.map(() => 0);
  const done = (which: number) =>
    samples[which].length >= REPS || (samples[which].length >= MIN_REPS && spent[which] >= BUDGET_SECONDS * 1000);
  for (let round = 0; !libraries.every((_, which) => done(which)); round++) {
    const order = libraries.map((_, which) => which);
    if (round % 2 === 1) order.reverse();
    for (const which of order) {
      if (done(which)) continue;
      let answer: unknown;
      const redisBefore = await redisCpu(raw);
      const cpu = process.cpuUsage();
      const ms = await timed(async () => {
        answer = await libraries[which].query(key, round);
      });
      const used = process.cpuUsage(cpu);
      const redisCpuUs = ((await redisCpu(raw)) - redisBefore) * 1e6 - infoCpuUs;
      libraries[which].check(key, round, answer, expected);
      samples[which].push({ ms, nodeCpuUs: used.user + used.system, redisCpuUs });
      spent[which] += ms;
    }
  }
  return samples.map(stats);
}

// ---------------------------------------------------------------------------------------------- report

interface SizeResult {
  size: number;
  load: Array<{ library: string; from: number; to: number; seconds: number; postsPerSecond: number }>;
  queries: Array<{ key: QueryKey; query: string; results: Record<string, Stats>; ratio: number }>;
  /** Negation, absence, keyset pages and facets against hand-written node-redis commands (query-kinds.ts). */
  kinds?: Array<{ label: string; recordMs: number; handMs: number; ratio: number }>;
}

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));

function printSize(result: SizeResult, labels: readonly string[]): void {
  console.log('');
  console.log(`## ${result.size.toLocaleString('en-US')} posts`);
  console.log('');
  for (const load of result.load) {
    console.log(
      `load ${load.library}: posts ${load.from.toLocaleString('en-US')}..${load.to.toLocaleString('en-US')} in ` +
        `${load.seconds.toFixed(1)} s (${Math.round(load.postsPerSecond).toLocaleString('en-US')} posts/s)`,
    );
  }
  console.log('');
  const ratio = labels.length > 1;
  printTable(
    ['query', ...labels.map((label) => `${label} median / p95 (ms)`), ...(ratio ? [`${labels[1]} / ${labels[0]}`] : []), 'reps'],
    ['left', ...labels.map(() => 'right' as const), ...(ratio ? ['right' as const] : []), 'right'],
    result.queries.map((row) => [
      row.query,
      ...labels.map((label) => `${ms(row.results[label].medianMs)} / ${ms(row.results[label].p95Ms)}`),
      ...(ratio ? [`${row.ratio.toFixed(1)}x`] : []),
      labels.map((label) => row.results[label].reps).join(' / '),
    ]),
  );
  console.log('');
  const cpu = (stats: Stats) => stats.nodeCpuUs + stats.redisCpuUs;
  printTable(
    [
      'query (CPU per call, medians)',
      ...labels.map((label) => `${label} client + Redis (us)`),
      ...(ratio ? [`${labels[1]} / ${labels[0]}`] : []),
    ],
    ['left', ...labels.map(() => 'right' as const), ...(ratio ? ['right' as const] : [])],
    result.queries.map((row) => [
      row.query,
      ...labels.map((label) => `${row.results[label].nodeCpuUs.toFixed(0)} + ${row.results[label].redisCpuUs.toFixed(0)}`),
      ...(ratio ? [`${(cpu(row.results[labels[1]]) / cpu(row.results[labels[0]])).toFixed(1)}x`] : []),
    ]),
  );
}

interface Verdict {
  target: string;
  measured: string;
  met: boolean;
}

function verdicts(results: SizeResult[], labels: readonly string[]): Verdict[] {
  const out: Verdict[] = [];
  if (labels.length > 1) {
    for (const result of results) {
      for (const key of ['Q1', 'Q2'] as const) {
        const row = result.queries.find((query) => query.key === key)!;
        out.push({
          target: `${key} at ${result.size.toLocaleString('en-US')}: redis-record >= 10x faster than nohm`,
          measured: `${row.ratio.toFixed(1)}x`,
          met: row.ratio >= 10,
        });
      }
    }
  }
  for (let i = 1; i < results.length; i++) {
    const before = results[i - 1];
    const after = results[i];
    const factor = after.size / before.size;
    for (const key of ['Q3', 'Q4'] as const) {
      const a = before.queries.find((query) => query.key === key)!.results[labels[0]].medianMs;
      const b = after.queries.find((query) => query.key === key)!.results[labels[0]].medianMs;
      out.push({
        target: `${key} redis-record growth ${before.size.toLocaleString('en-US')} -> ${after.size.toLocaleString('en-US')} (data x${factor.toFixed(1)}): < 2x`,
        measured: `${(b / a).toFixed(2)}x (${ms(a)} -> ${ms(b)} ms)`,
        met: b / a < 2,
      });
    }
  }
  return out;
}

function growthTable(results: SizeResult[], labels: readonly string[]): void {
  if (results.length < 2) return;
  const first = results[0];
  const last = results[results.length - 1];
  console.log('');
  console.log(`## Growth of the median, ${first.size.toLocaleString('en-US')} -> ${last.size.toLocaleString('en-US')} posts`);
  console.log('');
  printTable(
    ['query', ...labels],
    ['left', ...labels.map(() => 'right' as const)],
    QUERIES.map(({ key, label }) => [
      label,
      ...labels.map((library) => {
        const a = first.queries.find((query) => query.key === key)!.results[library].medianMs;
        const b = last.queries.find((query) => query.key === key)!.results[library].medianMs;
        return `${(b / a).toFixed(2)}x`;
      }),
    ]),
  );
}

// ---------------------------------------------------------------------------------------------- run

async function main(): Promise<void> {
  const redis = await redisForRun();
  const hex = randomHex();
  const recordPrefix = `benchq${hex}`;
  const nohmPrefix = `benchqnohm${hex}`;
  const raw = await connectedClient(redis.url);
  const nohmClient = new IORedis(redis.url, { lazyConnect: true });
  nohmClient.on('error', (error) => console.error('ioredis client:', error.message));
  const skipNohm = option('skip-nohm', 'SKIP_NOHM') !== undefined;
  try {
    await connect({ url: redis.url, prefix: recordPrefix });
    const libraries: Library[] = [redisRecord];
    if (!skipNohm) {
      await nohmClient.connect();
      Nohm.setPrefix(nohmPrefix);
      Nohm.setClient(nohmClient as never);
      libraries.push(nohmLibrary());
    }
    const labels = libraries.map((library) => library.label);
    const server = await serverName(raw);

    console.log(
      `# Query benchmark: sizes ${SIZES.map((size) => size.toLocaleString('en-US')).join(', ')}; up to ${REPS} reps per query ` +
        `(>= ${MIN_REPS}, ${BUDGET_SECONDS} s budget per library and query); loads ${BATCH} creates in flight; Node ${process.version}`,
    );
    console.log(
      `${server}: ${describeRedis(redis.url)}; ` + `nohm ${require('nohm/package.json').version} over ioredis ${nohmIORedisVersion()}`,
    );

    const posts = makeQueryPosts(SIZES[SIZES.length - 1], 20240601);
    const results: SizeResult[] = [];
    let loaded = 0;
    for (const size of SIZES) {
      const result: SizeResult = { size, load: [], queries: [] };
      for (const library of libraries) {
        const seconds = (await timed(() => library.load(posts, loaded, size))) / 1000;
        result.load.push({ library: library.label, from: loaded, to: size, seconds, postsPerSecond: (size - loaded) / seconds });
        process.stderr.write(`${library.label}: loaded posts ${loaded}..${size} in ${seconds.toFixed(1)} s\n`);
      }
      loaded = size;
      check((await RecordPost.count()) === size, `redis-record holds ${await RecordPost.count()} posts, expected ${size}`);
      // Let the loading's aftermath pass before timing queries: node-redis arms a 5 s timeout (a timer and an
      // AbortSignal) for every command, so the creates leave a heap of live timers that slows the collector for
      // seconds; both libraries run in this process and would both be measured through it.
      await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
      const expected = new Expected(posts, size);
      for (const { key, label } of QUERIES) {
        const measured = await measure(libraries, key, expected, raw);
        const results = Object.fromEntries(labels.map((library, which) => [library, measured[which]]));
        const ratio = labels.length > 1 ? measured[1].medianMs / measured[0].medianMs : 1;
        result.queries.push({ key, query: label, results, ratio });
        process.stderr.write(`${size}: ${label}: ${labels.map((l, w) => `${l} ${ms(measured[w].medianMs)} ms`).join(', ')}\n`);
      }
      results.push(result);
      printSize(result, labels);
      // the kinds nohm does not answer: against hand-written commands on redis-record's keys
      const kinds = [
        ...(await kindWorkloads(RecordPost, raw, `${recordPrefix}:{QueryBenchPost}`)),
        ...(await tagCompoundWorkloads(posts, size, raw, recordPrefix)),
        ...(await collectionWorkloads(posts, size, raw, recordPrefix)),
      ];
      result.kinds = await measureKinds(kinds, Math.min(REPS, 50));
    }

    growthTable(results, labels);
    const targets = verdicts(results, labels);
    console.log('');
    console.log('## Targets');
    console.log('');
    printTable(
      ['target', 'measured', 'met'],
      ['left', 'right', 'center'],
      targets.map((verdict) => [verdict.target, verdict.measured, verdict.met ? 'yes' : 'NO']),
    );

    if (JSON_FILE) {
      const report = {
        sizes: SIZES,
        reps: REPS,
        minReps: MIN_REPS,
        budgetSeconds: BUDGET_SECONDS,
        batch: BATCH,
        node: process.version,
        server,
        nohm: skipNohm ? undefined : require('nohm/package.json').version,
        date: new Date().toISOString(),
        results,
        targets,
      };
      console.log(`\nresults written to ${writeJsonReport(JSON_FILE, report)}`);
    }
  } finally {
    await disconnect();
    const removed = (await forgetPrefix(raw, recordPrefix)) + (await deleteKeys(raw, nohmPrefix));
    process.stderr.write(`removed ${removed} keys\n`);
    if (nohmClient.status === 'ready') await nohmClient.quit();
    else nohmClient.disconnect();
    await raw.close();
    await redis.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
