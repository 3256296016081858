/**
 * Redis's CPU per single-object write, redis-record against hand-written node-redis code making the same writes
 * (docs/design/server-cpu.md). N objects of a model with two indexed attributes are created, updated (both
 * indexed attributes and one more change) and removed, one awaited after the other, by three writers taking
 * turns every 100 operations (so that the load of a shared machine falls on all three alike):
 *
 * - redis-record: `create`, `save()` of a loaded object, `remove()`: one FCALL each;
 * - hand-written (support/server-cpu-writers.ts): INCR + MULTI/EXEC; HMGET of the old values + MULTI/EXEC;
 *   HMGET of the topic + MULTI/EXEC;
 * - floor: one FCALL of a function making exactly the hand-written commands, no more: what a function call and
 *   its redis.call's cost by themselves.
 *
 * Redis's own timing (INFO commandstats, read before and after each step) gives the server time per operation:
 * the usec of the commands the client sent (FCALL includes the commands it calls, EXEC those it runs). Also
 * redis-record's sequential latency of create, load (find), update and remove as a ratio to a PING's: each
 * operation is followed by a PING, and the medians of both are compared.
 *
 *   npx ts-node --transpile-only --project tsconfig.json bench/server-cpu.ts [--n 3000]
 *
 * It always starts a private redis-server of its own (never REDIS_URL, never 127.0.0.1:6379).
 */
import 'reflect-metadata';
import { Attr, BaseEntity, connect, disconnect, Index, Model } from '../src';
import { startPrivateRedis } from '../tools/private-redis';
import { option, positiveInteger } from './support/args';
import { Client, connectedClient, randomHex, serverName } from './support/bench-redis';
import { commandTimes, CommandTimes } from './support/call-costs';
import { check, median } from './support/measure';
import { CpuPost, floorWriter, FLOOR_LIBRARY, handWrittenWriter } from './support/server-cpu-writers';
import { printTable } from './support/table';

const N = positiveInteger('n', 'N', 3_000);
/** `--detail`: each step's commands, calls and usec per operation, on stderr. */
const DETAIL = option('detail', 'DETAIL') !== undefined;

function log(writer: string, before: CommandTimes, after: CommandTimes, operations: number): void {
  const lines = [...after].map(([command, { calls, usec }]) => {
    const was = before.get(command) ?? { calls: 0, usec: 0 };
    return [command, (calls - was.calls) / operations, (usec - was.usec) / operations] as const;
  });
  const shown = lines.filter(([command, calls]) => calls > 0 && !command.startsWith('info'));
  process.stderr.write(`${writer}: ${shown.map(([c, calls, usec]) => `${c} ${calls.toFixed(2)}x ${usec.toFixed(1)}us`).join(', ')}\n`);
}

@Model({ name: 'CpuPost' })
class RecordPost extends BaseEntity {
  @Attr({ type: 'string' }) author!: string;
  @Attr({ type: 'string' }) @Index() topic!: string;
  @Attr({ type: 'string' }) content!: string;
  @Attr({ type: 'date' }) @Index() createdAt!: Date;
}

const TOPICS = 20;
const post = (i: number, round: number): CpuPost => ({
  author: `author ${i % 97}`,
  topic: `topic ${(i + round) % TOPICS}`,
  content: `post ${i}, version ${round}: `.padEnd(200, 'x'),
  createdAt: 1_700_000_000_000 + i * 1000 + round,
});

/** The commands a writer sends itself, as INFO commandstats names them: their usec hold those they run. */
const SENT: Record<string, readonly string[]> = {
  'redis-record': ['fcall', 'fcall_ro', 'evalsha', 'eval'],
  'hand-written': ['incr', 'hmget', 'multi', 'exec'],
  floor: ['fcall'],
};

/** Operations a writer makes in a row before the next writer's turn: load on a shared machine falls on all alike. */
const BLOCK = 100;

/** A writer's step: operation `i`, one awaited after the other. */
type Step = (i: number) => Promise<unknown>;

/** Sums the usec Redis timed for a writer's commands between two readings (and counts the calls of `one`). */
function addTimes(total: { usec: number; calls: number }, before: CommandTimes, after: CommandTimes, writer: string): void {
  for (const command of SENT[writer]) total.usec += (after.get(command)?.usec ?? 0) - (before.get(command)?.usec ?? 0);
  const one = writer === 'hand-written' ? 'exec' : SENT[writer][0];
  total.calls += (after.get(one)?.calls ?? 0) - (before.get(one)?.calls ?? 0);
}

/**
 * Runs each writer's `steps` for i in [0, N), the writers taking turns every BLOCK operations, and returns Redis's
 * usec per operation for each. redis-record's operations (`latency` given) are each followed by a PING, and the
 * medians of both go into `latency` as a ratio: each is timed in the same stretch of the run.
 */
async function measured(
  raw: Client,
  steps: Record<string, Step>,
  latency?: { ping: Client; into: number[] },
): Promise<Record<string, number>> {
  const totals = Object.fromEntries(Object.keys(steps).map((writer) => [writer, { usec: 0, calls: 0 }]));
  const walls: number[] = [];
  const pings: number[] = [];
  for (let from = 0; from < N; from += BLOCK) {
    for (const [writer, step] of Object.entries(steps)) {
      const before = await commandTimes(raw);
      for (let i = from; i < Math.min(N, from + BLOCK); i++) {
        const began = process.hrtime.bigint();
        await step(i);
        if (!latency || writer !== 'redis-record') continue;
        const between = process.hrtime.bigint();
        await latency.ping.ping();
        walls.push(Number(between - began));
        pings.push(Number(process.hrtime.bigint() - between));
      }
      const after = await commandTimes(raw);
      if (DETAIL && from === 0) log(writer, before, after, Math.min(N, BLOCK));
      addTimes(totals[writer], before, after, writer);
    }
  }
  if (latency) latency.into.push(median(walls) / median(pings));
  const usec: Record<string, number> = {};
  for (const [writer, total] of Object.entries(totals)) {
    check(total.calls === N, `${writer}: ${N} operations made ${total.calls} calls`);
    usec[writer] = total.usec / N;
  }
  return usec;
}

/** The median wall time of `step(i)` for i in [0, N), each followed by a PING, as a ratio to the PING's median. */
async function latencyRatio(ping: Client, step: Step): Promise<number> {
  const walls: number[] = [];
  const pings: number[] = [];
  for (let i = 0; i < N; i++) {
    const began = process.hrtime.bigint();
    await step(i);
    const between = process.hrtime.bigint();
    await ping.ping();
    walls.push(Number(between - began));
    pings.push(Number(process.hrtime.bigint() - between));
  }
  return median(walls) / median(pings);
}

const OPERATIONS = ['create', 'update', 'remove'] as const;
type Operation = (typeof OPERATIONS)[number];

async function main(): Promise<void> {
  const redis = await startPrivateRedis();
  const raw = await connectedClient(redis.url);
  const client = await connectedClient(redis.url);
  const prefix = `cpu${randomHex()}`;
  try {
    await connect({ url: redis.url, prefix });
    await client.sendCommand(['FUNCTION', 'LOAD', 'REPLACE', FLOOR_LIBRARY]);
    const hand = handWrittenWriter(client, `${prefix}:{HandPost}`);
    const floor = floorWriter(client, `${prefix}:{FloorPost}`);
    const usec = {} as Record<Operation, Record<string, number>>;
    const latency: Record<string, number[]> = { create: [], load: [], update: [], remove: [] };
    // a warm-up: the model registers itself and the library loads on first use
    await (await RecordPost.create({ ...post(0, 0), createdAt: new Date(0) })).remove();

    const records: RecordPost[] = [];
    const ids: Record<string, string[]> = { hand: [], floor: [] };
    usec.create = await measured(
      raw,
      {
        'redis-record': async (i) => {
          const data = post(i, 0);
          records[i] = await RecordPost.create({ ...data, createdAt: new Date(data.createdAt) });
        },
        'hand-written': async (i) => (ids.hand[i] = await hand.create(post(i, 0))),
        floor: async (i) => (ids.floor[i] = await floor.create(post(i, 0))),
      },
      { ping: client, into: latency.create },
    );
    check((await RecordPost.count()) === N, `redis-record stored ${await RecordPost.count()} of ${N} posts`);

    const loaded: RecordPost[] = [];
    latency.load.push(await latencyRatio(client, async (i) => (loaded[i] = await RecordPost.findOrFail(records[i].id!))));

    usec.update = await measured(
      raw,
      {
        'redis-record': (i) => {
          const data = post(i, 1);
          Object.assign(loaded[i], { topic: data.topic, content: data.content, createdAt: new Date(data.createdAt) });
          return loaded[i].save();
        },
        'hand-written': (i) => hand.update(ids.hand[i], post(i, 1)),
        floor: (i) => floor.update(ids.floor[i], post(i, 1)),
      },
      { ping: client, into: latency.update },
    );
    check(
      (await RecordPost.findBy({ topic: post(0, 1).topic })).some((found) => found.id === records[0].id),
      'an update moved its index entry',
    );

    usec.remove = await measured(
      raw,
      {
        'redis-record': (i) => loaded[i].remove(),
        'hand-written': (i) => hand.remove(ids.hand[i]),
        floor: (i) => floor.remove(ids.floor[i]),
      },
      { ping: client, into: latency.remove },
    );
    check((await RecordPost.count()) === 0, 'redis-record removed every post');
    const empty = await emptyCallUsec(raw, client);

    console.log(`Redis CPU per operation (INFO commandstats), ${N} objects with two indexed attributes; ${await serverName(raw)}`);
    console.log('');
    const ratio = (a: number, b: number) => (a / b).toFixed(2);
    printTable(
      ['operation', 'redis-record us', 'hand-written us', 'floor FCALL us', 'redis-record / hand-written', 'floor / hand-written'],
      ['left', 'right', 'right', 'right', 'right', 'right'],
      OPERATIONS.map((op) => {
        const { 'redis-record': record, 'hand-written': written, floor: least } = usec[op];
        return [op, record.toFixed(1), written.toFixed(1), least.toFixed(1), ratio(record, written), ratio(least, written)];
      }),
    );
    console.log(`\nAn empty FCALL: ${empty.toFixed(2)} us.\n`);
    printTable(
      ['operation', 'redis-record latency / PING (medians)'],
      ['left', 'right'],
      (['create', 'load', 'update', 'remove'] as const).map((op) => [op, latency[op][0].toFixed(2)]),
    );
  } finally {
    await disconnect();
    await client.close();
    await raw.close();
    await redis.stop();
  }
}

/** Redis's usec for an FCALL of a function that does nothing. */
async function emptyCallUsec(raw: Client, client: Client): Promise<number> {
  const before = await commandTimes(raw);
  for (let i = 0; i < N; i++) await client.sendCommand(['FCALL', 'rrbench_empty', '0']);
  const total = { usec: 0, calls: 0 };
  addTimes(total, before, await commandTimes(raw), 'floor');
  check(total.calls === N, `${N} empty calls made ${total.calls}`);
  return total.usec / N;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
