/**
 * Where a bulk create's time goes: the suite's bulk workload (100,000 of its posts) written by `saveMany`, as
 * the suite calls it, by the transport reference as the suite runs it (bench/peers/transport-reference.ts:
 * node-redis alone sending the same commands, built from the posts chunk by chunk inside the timing), and by
 * the same reference with every command built before the clock starts, taking turns, each in a process of its
 * own as in the suite (bench/workloads/writer-child.ts). Per run: posts/s, the writer process's CPU per post
 * (`process.cpuUsage()`, garbage collection included, with the main thread's garbage-collection pauses apart)
 * and Redis's main thread's (`INFO cpu`). Prints every run, then a table of medians and ranges, Redis's time
 * per post split by command (INFO commandstats), and saveMany's share of each reference round by round. The
 * first round is a warm-up, not counted. Each run also counts the minor page faults of the writer process and
 * of Redis (a server on this machine), per thousand posts: memory touched for the first time, or again after
 * it was given back to the kernel; what one such page costs on this machine is measured before the first run
 * and after the last (fresh-page-cost.ts).
 * `--idle=S` waits S seconds before each run, as a writer of the suite waits while the others run: after ten
 * seconds or so of idle, Redis's allocator has given the memory it had freed back to the kernel.
 *
 * `--node-flags=F,G` starts every writer process with those Node.js options (V8's too, which NODE_OPTIONS does
 * not take), to see what a setting changes: `--idle=30 --node-flags=--no-flush-bytecode`, say, keeps V8 from
 * dropping the bytecode of functions left unused while a writer idles.
 *
 *   npx ts-node --transpile-only --project tsconfig.json bench/bulk-cpu.ts [--n=100000] [--rounds=9] [--idle=0] [--node-flags=]
 *
 * A private redis-server is started unless REDIS_URL is set; keys go under fresh prefixes, removed at the end.
 */
import { nonNegativeNumber, option, positiveInteger } from './support/args';
import { connectedClient, deleteKeys, describeRedis, randomHex, redisForRun } from './support/bench-redis';
import { CallCost, commandTimeBetween, CommandTimes, commandTimes, redisCpu } from './support/call-costs';
import { describeFreshPage, freshPageMicros } from './support/fresh-page-cost';
import { check, median } from './support/measure';
import { faultsBetween, redisFaults } from './support/redis-faults';
import { printTable } from './support/table';
import { WriterKind, writerPrefix } from './workloads/bulk-writers';
import { startWriter, WriterProcess } from './workloads/writer-process';

const N = positiveInteger('n', 'N', 100_000);
const ROUNDS = positiveInteger('rounds', 'ROUNDS', 9);
/** Seconds of idle before each run (none by default). */
const IDLE = nonNegativeNumber('idle', 'IDLE', 0);
/** Node.js options of every writer process (none by default). */
const NODE_FLAGS = (option('node-flags', 'NODE_FLAGS') ?? '').split(',').filter((flag) => flag !== '');
for (const flag of NODE_FLAGS)
  if (!flag.startsWith('--')) throw new Error(`--node-flags: ${JSON.stringify(flag)} is not a Node.js option (--name)`);
/** The posts' seed (bench/workloads/posts.ts). */
const SEED = 7;

/**
 * Per post, in microseconds: wall time, the writer process's CPU, Redis's main-thread CPU, and Redis's own
 * timing of each part of that (PARTS, from INFO commandstats).
 */
type Run = CallCost & {
  parts: Record<Part, number>;
  /** The writer's main thread stood still for garbage collection this long per post, in microseconds (part of `cpu`). */
  gc: number;
  /** Minor page faults per thousand posts: the writer process's, and Redis's (null when it cannot be read). */
  clientFaults: number;
  redisFaults: number | null;
};

/**
 * The commands the writers send: the ids' INCRBY, and MULTI ... EXEC around the objects' writes (a chunk's DEL
 * of its object keys, each object's HSET, the ZADDs and SADDs of `all` and the indexes).
 */
const WRITES = ['del', 'hset', 'zadd', 'sadd'] as const;
/**
 * Where Redis's main thread spends its time per post: each command of the objects' writes, EXEC's own share
 * (its time less that of the commands it ran), MULTI and INCRBY, and the rest of the thread's CPU outside
 * any command (reading and parsing the requests, queueing the transaction's commands, writing the replies).
 */
const PARTS = [...WRITES, 'exec (its own)', 'multi, incrby', 'outside commands'] as const;
type Part = (typeof PARTS)[number];

/** Redis's time per post on each part, from commandstats read before and after a run of `n` posts. */
function partsOf(before: CommandTimes, after: CommandTimes, redisMicros: number, n: number): Record<Part, number> {
  const usec = (command: string) => commandTimeBetween(before, after, command).usec;
  const writes = WRITES.map(usec);
  const exec = usec('exec');
  const others = usec('multi') + usec('incrby');
  const parts = [...writes, exec - writes.reduce((a, b) => a + b, 0), others, redisMicros - exec - others];
  return Object.fromEntries(PARTS.map((part, i) => [part, parts[i] / n])) as Record<Part, number>;
}

const perSecond = (run: Run) => 1e6 / run.wall;

/** The writers, taking turns in this order each round: saveMany first, then the two forms of the reference. */
const WRITERS: ReadonlyArray<{ kind: WriterKind; short: string; title: string }> = [
  { kind: 'redis-record', short: 'saveMany', title: "saveMany (given the posts' attributes, building the instances in the timing)" },
  { kind: 'reference', short: 'reference', title: "reference (building the commands in the timing, as the suite's)" },
  { kind: 'reference-prebuilt', short: 'prebuilt reference', title: 'reference with the commands built before the clock' },
];

async function main(): Promise<void> {
  const redis = await redisForRun();
  const raw = await connectedClient(redis.url);
  const prefix = `bulkcpu${randomHex()}`;
  const writers: WriterProcess[] = [];
  const faultsOfRedis = await redisFaults(raw, redis.url);
  // every writer starts from an empty key space of its own (the prebuilt reference hands out ids from 1)
  const clear = async () => void (await Promise.all(WRITERS.map(({ kind }) => deleteKeys(raw, writerPrefix(kind, prefix)))));
  const runs: Run[][] = WRITERS.map(() => []);
  const idling = IDLE > 0 ? `, ${IDLE} s of idle before each run` : '';
  const flags = NODE_FLAGS.length > 0 ? `, writers started with ${NODE_FLAGS.join(' ')}` : '';
  console.log(
    `bulk create of ${N.toLocaleString('en-US')} suite posts, ${ROUNDS} rounds (the first not counted)${idling}${flags}, ${describeRedis(redis.url)}`,
  );
  const pageCost = () => describeFreshPage(freshPageMicros());
  console.log(`a page of fresh memory: ${pageCost()} per 4 KiB page (bench/support/fresh-page-cost.ts)`);
  try {
    for (const { kind } of WRITERS) writers.push(await startWriter({ kind, url: redis.url, prefix, posts: N, seed: SEED }, NODE_FLAGS));
    const measured = async (writer: WriterProcess): Promise<Run> => {
      await clear();
      if (IDLE > 0) await new Promise((resolve) => setTimeout(resolve, IDLE * 1000));
      const redisBefore = await redisCpu(raw);
      const timesBefore = await commandTimes(raw);
      const faultsBefore = faultsOfRedis();
      const { seconds, cpuMicros, gcMicros, pageFaults, stored } = await writer.run(N);
      const redisFaulted = faultsBetween(faultsBefore, faultsOfRedis());
      const redisSeconds = (await redisCpu(raw)) - redisBefore;
      const parts = partsOf(timesBefore, await commandTimes(raw), redisSeconds * 1e6, N);
      check(stored === N, `${writer.name} stored ${stored} posts, expected ${N}`);
      const perThousand = (faults: number) => (faults * 1000) / N;
      return {
        wall: (seconds * 1e6) / N,
        cpu: cpuMicros / N,
        gc: gcMicros / N,
        redis: (redisSeconds * 1e6) / N,
        parts,
        clientFaults: perThousand(pageFaults),
        redisFaults: redisFaulted === null ? null : perThousand(redisFaulted),
      };
    };
    for (let round = 0; round < ROUNDS; round++) {
      const measuredRuns: Run[] = [];
      for (const writer of writers) measuredRuns.push(await measured(writer));
      const line = (name: string, run: Run) =>
        `${name} ${Math.round(perSecond(run)).toLocaleString('en-US')} posts/s, client ${run.cpu.toFixed(2)} us (GC pauses ${run.gc.toFixed(2)}), Redis ${run.redis.toFixed(2)} us per post, ` +
        `page faults per 1,000 posts: client ${run.clientFaults.toFixed(0)}, Redis ${run.redisFaults === null ? '-' : run.redisFaults.toFixed(0)}`;
      console.log(
        `round ${round + 1}${round === 0 ? ' (warm-up)' : ''}: ${measuredRuns.map((run, i) => line(WRITERS[i].short, run)).join('; ')}`,
      );
      if (round === 0) continue;
      measuredRuns.forEach((run, i) => runs[i].push(run));
    }
  } finally {
    await Promise.all(writers.map((writer) => writer.close()));
    await clear();
    await raw.close();
    await redis.stop();
  }
  console.log(`a page of fresh memory, after the runs: ${pageCost()}`);
  const span = (values: number[], digits: number) =>
    `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)} to ${Math.max(...values).toFixed(digits)})`;
  const row = (name: string, list: Run[]) => [
    name,
    span(
      list.map((run) => perSecond(run) / 1000),
      1,
    ),
    span(
      list.map((run) => run.cpu),
      2,
    ),
    span(
      list.map((run) => run.gc),
      2,
    ),
    span(
      list.map((run) => run.redis),
      2,
    ),
    span(
      list.map((run) => run.clientFaults),
      0,
    ),
    list.some((run) => run.redisFaults === null)
      ? '-'
      : span(
          list.map((run) => run.redisFaults!),
          0,
        ),
  ];
  printTable(
    [
      'writer',
      'thousand posts/s',
      'client CPU us/post',
      'its GC pauses us/post',
      'Redis CPU us/post',
      'client faults/1,000 posts',
      'Redis faults/1,000 posts',
    ],
    ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
    WRITERS.map(({ title }, i) => row(title, runs[i])),
  );
  console.log("\nRedis's main thread per post, in us (medians; INFO cpu, and INFO commandstats for the commands):");
  printTable(
    ['part', ...WRITERS.map(({ short }) => short)],
    ['left', ...WRITERS.map(() => 'right' as const)],
    PARTS.map((part) => [part, ...runs.map((list) => median(list.map((run) => run.parts[part])).toFixed(2))]),
  );
  for (let w = 1; w < WRITERS.length; w++) {
    const shares = runs[0].map((run, i) => perSecond(run) / perSecond(runs[w][i]));
    const each = shares.map((share) => `${(share * 100).toFixed(0)}%`).join(', ');
    console.log(`saveMany's share of the ${WRITERS[w].short}, round by round: median ${(median(shares) * 100).toFixed(0)}% (${each})`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
