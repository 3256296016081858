/**
 * CRUD benchmark, the workload of the ActiveRedis paper's Table I: create, count, load, update and delete
 * of N posts, each operation awaited before the next. The same workload runs through redis-record and
 * through hand-written node-redis code issuing the reference commands, in one run, interleaved in blocks
 * (the order flipping every block) so that machine noise hits both alike.
 *
 *   npm run bench:crud -- [--n=10000] [--reps=3] [--block=100] [--json[=file]]
 *   (or N=... REPS=... BLOCK=... BENCH_JSON=file in the environment)
 *
 * A private redis-server is started unless REDIS_URL is set; keys go under a fresh prefix, removed at the end.
 * Round trips are counted by wrapping each client in a Proxy: every command call is one, a MULTI/pipeline
 * exec is one, the commands queued in it are not.
 */
import 'reflect-metadata';
import { Attr, BaseEntity, connect, disconnect, Model } from '../src';
import { seeded } from '../tools/seeded-random';
import { jsonFileOption, positiveInteger, writeJsonReport } from './support/args';
import { Client, connectedClient, describeRedis, forgetPrefix, randomHex, redisForRun } from './support/bench-redis';
import { check, median } from './support/measure';
import { printTable } from './support/table';
import { GUARDED_HSET } from './support/guarded-hset';

// ---------------------------------------------------------------------------------------------- options

const N = positiveInteger('n', 'N', 10_000);
const REPS = positiveInteger('reps', 'REPS', 3);
const BLOCK = positiveInteger('block', 'BLOCK', 100);
const WARMUP = Math.min(500, N);
const JSON_FILE = jsonFileOption('crud');

// ---------------------------------------------------------------------------------------------- round trips

class RoundTrips {
  count = 0;
}

/** Client methods that are not Redis commands. */
const NOT_COMMANDS = new Set([
  'on',
  'once',
  'off',
  'emit',
  'removeListener',
  'connect',
  'close',
  'destroy',
  'quit',
  'disconnect',
  'duplicate',
]);
const EXECS = new Set(['exec', 'EXEC', 'execTyped', 'execAsPipeline', 'execAsPipelineTyped']);

/** A MULTI (or pipeline) builder whose exec counts one round trip; queued commands count none. */
function countedMulti(multi: object, trips: RoundTrips): object {
  const proxy: object = new Proxy(multi, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (typeof property === 'string' && EXECS.has(property)) trips.count++;
        const result = value.apply(target, args);
        return result === target ? proxy : result;
      };
    },
  });
  return proxy;
}

/** The client as seen by the code under test: each command call counts one round trip. */
function counted(client: Client, trips: RoundTrips): Client {
  return new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (typeof property !== 'string' || NOT_COMMANDS.has(property)) return value.bind(target);
      if (property === 'multi' || property === 'MULTI') {
        return (...args: unknown[]) => countedMulti(value.apply(target, args), trips);
      }
      return (...args: unknown[]) => {
        trips.count++;
        return value.apply(target, args);
      };
    },
  });
}

// ---------------------------------------------------------------------------------------------- workload

@Model({ name: 'BenchPost' })
class BenchPost extends BaseEntity {
  @Attr() author!: string;
  @Attr() topic!: string;
  @Attr() content!: string;
}

interface PostData {
  author: string;
  topic: string;
  content: string;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 .,;!?';

function makeText(random: () => number, min: number, max: number): string {
  const length = min + Math.floor(random() * (max - min + 1));
  let text = '';
  for (let i = 0; i < length; i++) text += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return text;
}

function makePosts(seed: number): { posts: PostData[]; newContent: string[]; newerContent: string[] } {
  const random = seeded(seed); // every run and both implementations see the same posts
  const posts = Array.from({ length: N }, () => ({
    author: makeText(random, 5, 20),
    topic: makeText(random, 5, 40),
    content: makeText(random, 50, 2000),
  }));
  const newContent = Array.from({ length: N }, () => makeText(random, 50, 2000));
  const newerContent = Array.from({ length: N }, () => makeText(random, 50, 2000));
  return { posts, newContent, newerContent };
}

// ---------------------------------------------------------------------------------------------- implementations

/** One implementation of the workload. `i` indexes the post; each keeps its own ids. */
interface Implementation {
  readonly label: string;
  readonly trips: RoundTrips;
  create(post: PostData, i: number): Promise<void>;
  count(): Promise<number>;
  load(i: number): Promise<PostData>;
  update(content: string, i: number): Promise<void>;
  /** A second update pass: hand-written sends a bare HSET (no existence guard); redis-record is unchanged. */
  updateUnguarded(content: string, i: number): Promise<void>;
  remove(i: number): Promise<void>;
}

/** Hand-written node-redis code on redis-record's key layout: the reference commands of design.md. */
function handWritten(client: Client, trips: RoundTrips, prefix: string, guardSha: string): Implementation {
  const base = `${prefix}:{HandPost}`;
  const sequence = `${base}:seq`;
  const all = `${base}:all`;
  const object = (id: string) => `${base}:obj:${id}`;
  const ids: string[] = new Array(N);
  return {
    label: 'hand-written',
    trips,
    async create(post, i) {
      const id = String(await client.incr(sequence));
      await client
        .multi()
        .hSet(object(id), { '#id': id, author: post.author, topic: post.topic, content: post.content })
        .zAdd(all, { score: Number(id), value: id })
        .exec();
      ids[i] = id;
    },
    async count() {
      return client.zCard(all);
    },
    async load(i) {
      const id = ids[i];
      const [score, fields] = (await client.multi().zScore(all, id).hGetAll(object(id)).exec()) as unknown as [
        number | null,
        Record<string, string>,
      ];
      if (score === null) throw new Error(`hand-written: post ${id} is missing`);
      return { author: fields.author, topic: fields.topic, content: fields.content };
    },
    async update(content, i) {
      // Guarded like redis-record's update: the field is written only if the post still exists, atomically.
      const id = ids[i];
      const written = await client.evalSha(guardSha, { keys: [all, object(id)], arguments: [id, 'content', content] });
      if (written !== 1) throw new Error(`hand-written: post ${id} is missing`);
    },
    async updateUnguarded(content, i) {
      await client.hSet(object(ids[i]), 'content', content);
    },
    async remove(i) {
      const id = ids[i];
      await client.multi().del(object(id)).zRem(all, id).exec();
    },
  };
}

/** The same workload through redis-record's ActiveRecord API. */
function redisRecord(trips: RoundTrips): Implementation {
  const ids: string[] = new Array(N);
  const loaded: BenchPost[] = new Array(N);
  return {
    label: 'redis-record',
    trips,
    async create(post, i) {
      ids[i] = (await BenchPost.create(post)).id;
    },
    async count() {
      return BenchPost.count();
    },
    async load(i) {
      const post = await BenchPost.find(ids[i]);
      if (!post) throw new Error(`redis-record: post ${ids[i]} is missing`);
      loaded[i] = post;
      return post;
    },
    async update(content, i) {
      const post = loaded[i];
      post.content = content;
      await post.save();
    },
    async updateUnguarded(content, i) {
      const post = loaded[i];
      post.content = content;
      await post.save();
    },
    async remove(i) {
      await loaded[i].remove();
      loaded[i] = undefined as unknown as BenchPost;
    },
  };
}

// ---------------------------------------------------------------------------------------------- measuring

const OPERATIONS = ['create', 'count', 'load', 'update', 'update (bare HSET)', 'delete'] as const;
type Operation = (typeof OPERATIONS)[number];

interface Measure {
  seconds: number;
  trips: number;
}

/**
 * Runs `op(impl, i)` for i in [from, to) on both implementations, in blocks, the order flipping every block;
 * resolves to each implementation's time and round trips.
 */
async function interleaved(
  impls: readonly Implementation[],
  from: number,
  to: number,
  flip: boolean,
  op: (impl: Implementation, i: number) => Promise<unknown>,
): Promise<Measure[]> {
  const measures = impls.map(() => ({ seconds: 0, trips: 0 }));
  for (let start = from, block = 0; start < to; start += BLOCK, block++) {
    const end = Math.min(to, start + BLOCK);
    const order = (block % 2 === 0) !== flip ? [0, 1] : [1, 0];
    for (const which of order) {
      const impl = impls[which];
      const trips = impl.trips.count;
      const began = process.hrtime.bigint();
      for (let i = start; i < end; i++) await op(impl, i);
      measures[which].seconds += Number(process.hrtime.bigint() - began) / 1e9;
      measures[which].trips += impl.trips.count - trips;
    }
  }
  return measures;
}

/** One repetition of the whole workload; `count` is run N times (it is one ZCARD each). */
async function repetition(
  impls: readonly Implementation[],
  data: ReturnType<typeof makePosts>,
  flip: boolean,
  from = 0,
  to = N,
): Promise<Record<Operation, Measure[]>> {
  const { posts, newContent, newerContent } = data;
  const result = {} as Record<Operation, Measure[]>;
  result.create = await interleaved(impls, from, to, flip, (impl, i) => impl.create(posts[i], i));
  result.count = await interleaved(impls, from, to, flip, (impl) => impl.count());
  for (const impl of impls) check((await impl.count()) === to - from, `${impl.label} count after create`);
  result.load = await interleaved(impls, from, to, flip, async (impl, i) => {
    const post = await impl.load(i);
    if (post.content !== posts[i].content) throw new Error(`${impl.label}: post ${i} loaded wrong content`);
  });
  result.update = await interleaved(impls, from, to, flip, (impl, i) => impl.update(newContent[i], i));
  result['update (bare HSET)'] = await interleaved(impls, from, to, flip, (impl, i) => impl.updateUnguarded(newerContent[i], i));
  for (const impl of impls) check((await impl.load(from)).content === newerContent[from], `${impl.label} update stored`);
  result.delete = await interleaved(impls, from, to, flip, (impl, i) => impl.remove(i));
  for (const impl of impls) check((await impl.count()) === 0, `${impl.label} count after delete`);
  return result;
}

async function main(): Promise<void> {
  const redis = await redisForRun();
  const prefix = `bench${randomHex()}`;
  const handClient = await connectedClient(redis.url);
  const recordClient = await connectedClient(redis.url);
  try {
    const handTrips = new RoundTrips();
    const recordTrips = new RoundTrips();
    const guardSha = String(await handClient.scriptLoad(GUARDED_HSET));
    await connect({ client: counted(recordClient, recordTrips), prefix });
    const impls = [handWritten(counted(handClient, handTrips), handTrips, prefix, guardSha), redisRecord(recordTrips)];
    const data = makePosts(20240601);

    console.log(`# CRUD benchmark: N=${N} posts, ${REPS} repetitions (median), blocks of ${BLOCK}, Node ${process.version}`);
    console.log(`redis: ${describeRedis(redis.url)}`);
    // Warm-up: JIT, script cache, connections; not measured.
    await repetition(impls, data, false, 0, WARMUP);

    const runs: Array<Record<Operation, Measure[]>> = [];
    for (let rep = 0; rep < REPS; rep++) {
      runs.push(await repetition(impls, data, rep % 2 === 1));
      process.stderr.write(`repetition ${rep + 1}/${REPS} done\n`);
    }

    const rows = OPERATIONS.map((operation) => {
      const hand = median(runs.map((run) => run[operation][0].seconds));
      const record = median(runs.map((run) => run[operation][1].seconds));
      return {
        operation,
        handSeconds: hand,
        recordSeconds: record,
        ratio: record / hand,
        handTripsPerOp: median(runs.map((run) => run[operation][0].trips)) / N,
        recordTripsPerOp: median(runs.map((run) => run[operation][1].trips)) / N,
        handRuns: runs.map((run) => run[operation][0].seconds),
        recordRuns: runs.map((run) => run[operation][1].seconds),
      };
    });

    console.log('');
    printTable(
      [
        'operation',
        'hand-written (s)',
        'redis-record (s)',
        'redis-record / hand-written',
        'round trips/op hand-written',
        'round trips/op redis-record',
      ],
      ['left', 'right', 'right', 'right', 'right', 'right'],
      rows.map((row) => [
        row.operation,
        row.handSeconds.toFixed(3),
        row.recordSeconds.toFixed(3),
        row.ratio.toFixed(2),
        row.handTripsPerOp.toFixed(2),
        row.recordTripsPerOp.toFixed(2),
      ]),
    );
    console.log('');
    console.log(
      'update: hand-written runs a guarded EVALSHA (HSET only while the post is in `all`), as redis-record does;\n' +
        'update (bare HSET): hand-written sends an unguarded HSET, redis-record runs the same save() again.',
    );

    if (JSON_FILE) {
      const report = { n: N, repetitions: REPS, block: BLOCK, node: process.version, date: new Date().toISOString(), rows };
      console.log(`results written to ${writeJsonReport(JSON_FILE, report)}`);
    }
  } finally {
    await disconnect();
    await forgetPrefix(handClient, prefix);
    await handClient.close();
    await recordClient.close();
    await redis.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
