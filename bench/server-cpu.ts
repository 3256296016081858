/**
 * Redis's CPU per single-object write, redis-record against hand-written node-redis code making the same writes
 * (docs/design/server-cpu.md). N objects of a model with two indexed attributes are created, updated (both
 * indexed attributes and one more change) and removed, one awaited after the other, by three writers:
 *
 * - redis-record: `create`, `save()` of a loaded object, `remove()`: one FCALL each;
 * - hand-written (support/server-cpu-writers.ts): INCR + MULTI/EXEC; HMGET of the old values + MULTI/EXEC;
 *   HMGET of the topic + MULTI/EXEC;
 * - floor: one FCALL of a function making exactly the hand-written commands, no more: what a function call and
 *   its redis.call's cost by themselves.
 *
 * Redis's own timing (INFO commandstats, read before and after each step) gives the server time per operation:
 * the usec of the commands the client sent (FCALL includes the commands it calls, EXEC those it runs). Also
 * redis-record's sequential latency of create, load (find), update and remove as a ratio to a PING's.
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
import { check } from './support/measure';
import { CpuPost, CpuWriter, floorWriter, FLOOR_LIBRARY, handWrittenWriter } from './support/server-cpu-writers';
import { printTable } from './support/table';

const N = positiveInteger('n', 'N', 3_000);
/** `--detail`: each step's commands, calls and usec per operation, on stderr. */
const DETAIL = option('detail', 'DETAIL') !== undefined;

function log(writer: string, before: CommandTimes, after: CommandTimes): void {
  const lines = [...after].map(([command, { calls, usec }]) => {
    const was = before.get(command) ?? { calls: 0, usec: 0 };
    return [command, (calls - was.calls) / N, (usec - was.usec) / N] as const;
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

/** Microseconds per operation Redis timed for `commands` between two readings; checks one call of `one` per operation. */
function usecPerOp(before: CommandTimes, after: CommandTimes, commands: readonly string[], one: string): number {
  let usec = 0;
  for (const command of commands) usec += (after.get(command)?.usec ?? 0) - (before.get(command)?.usec ?? 0);
  const calls = (after.get(one)?.calls ?? 0) - (before.get(one)?.calls ?? 0);
  check(calls === N, `${N} operations made ${calls} ${one} calls`);
  return usec / N;
}

/** Runs `step(i)` for i in [0, N), one awaited after the other: Redis's usec per operation and the wall us per operation. */
async function measured(raw: Client, writer: string, step: (i: number) => Promise<unknown>): Promise<{ usec: number; wall: number }> {
  const before = await commandTimes(raw);
  const began = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await step(i);
  const wall = Number(process.hrtime.bigint() - began) / 1e3 / N;
  const after = await commandTimes(raw);
  if (DETAIL) log(writer, before, after);
  return { usec: usecPerOp(before, after, SENT[writer], writer === 'hand-written' ? 'exec' : SENT[writer][0]), wall };
}

/** The wall us per call of `step(i)` for i in [0, N), one awaited after the other. */
async function timed(step: (i: number) => Promise<unknown>): Promise<number> {
  const began = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await step(i);
  return Number(process.hrtime.bigint() - began) / 1e3 / N;
}

const pingMicros = (client: Client) => timed(() => client.ping());

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
    const writers: Record<string, CpuWriter> = {
      'hand-written': handWrittenWriter(client, `${prefix}:{HandPost}`),
      floor: floorWriter(client, `${prefix}:{FloorPost}`),
    };
    const usec: Record<string, Partial<Record<Operation, number>>> = { 'redis-record': {}, 'hand-written': {}, floor: {} };
    const latency: Record<string, number> = {};
    // a warm-up: the model registers itself and the library loads on first use
    await (await RecordPost.create({ ...post(0, 0), createdAt: new Date(0) })).remove();

    const pingBefore = await pingMicros(client);
    const records: RecordPost[] = [];
    let run = await measured(raw, 'redis-record', async (i) => {
      const data = post(i, 0);
      records.push(await RecordPost.create({ ...data, createdAt: new Date(data.createdAt) }));
    });
    usec['redis-record'].create = run.usec;
    latency.create = run.wall;
    const ids: Record<string, string[]> = { 'hand-written': [], floor: [] };
    for (const name of ['hand-written', 'floor']) {
      usec[name].create = (await measured(raw, name, async (i) => ids[name].push(await writers[name].create(post(i, 0))))).usec;
    }
    check((await RecordPost.count()) === N, `redis-record stored ${await RecordPost.count()} of ${N} posts`);

    const loaded: RecordPost[] = [];
    latency.load = await timed(async (i) => loaded.push(await RecordPost.findOrFail(records[i].id!)));

    run = await measured(raw, 'redis-record', async (i) => {
      const data = post(i, 1);
      Object.assign(loaded[i], { topic: data.topic, content: data.content, createdAt: new Date(data.createdAt) });
      await loaded[i].save();
    });
    usec['redis-record'].update = run.usec;
    latency.update = run.wall;
    for (const name of ['hand-written', 'floor']) {
      usec[name].update = (await measured(raw, name, (i) => writers[name].update(ids[name][i], post(i, 1)))).usec;
    }
    check(
      (await RecordPost.findBy({ topic: post(0, 1).topic })).some((found) => found.id === records[0].id),
      'an update moved its index entry',
    );

    run = await measured(raw, 'redis-record', (i) => loaded[i].remove());
    usec['redis-record'].remove = run.usec;
    latency.remove = run.wall;
    for (const name of ['hand-written', 'floor']) {
      usec[name].remove = (await measured(raw, name, (i) => writers[name].remove(ids[name][i]))).usec;
    }
    check((await RecordPost.count()) === 0, 'redis-record removed every post');
    const ping = (pingBefore + (await pingMicros(client))) / 2;
    const empty = await emptyCallUsec(raw, client);

    console.log(`Redis CPU per operation (INFO commandstats), ${N} objects with two indexed attributes; ${await serverName(raw)}`);
    console.log('');
    const ratio = (a: number, b: number) => (a / b).toFixed(2);
    printTable(
      ['operation', 'redis-record us', 'hand-written us', 'floor FCALL us', 'redis-record / hand-written', 'floor / hand-written'],
      ['left', 'right', 'right', 'right', 'right', 'right'],
      OPERATIONS.map((op) => {
        const [record, hand, floor] = [usec['redis-record'][op]!, usec['hand-written'][op]!, usec.floor[op]!];
        return [op, record.toFixed(1), hand.toFixed(1), floor.toFixed(1), ratio(record, hand), ratio(floor, hand)];
      }),
    );
    console.log(`\nAn empty FCALL: ${empty.toFixed(2)} us.\n`);
    printTable(
      ['operation', 'redis-record latency / PING'],
      ['left', 'right'],
      (['create', 'load', 'update', 'remove'] as const).map((op) => [op, ratio(latency[op], ping)]),
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
  return usecPerOp(before, await commandTimes(raw), ['fcall'], 'fcall');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
