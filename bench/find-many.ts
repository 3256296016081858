/**
 * Reads by id in bulk: N of the suite's posts (bench/workloads/posts.ts, about 1 KB each) stored by redis-record,
 * then read back in calls of 100, 1,000 and N ids by three readers taking turns:
 *
 * - `findMany`: redis-record, entities out (one MULTI of an HGETALL per id);
 * - `ZSCORE per id`: hand-written node-redis, the load of the persistence pattern for each id (one MULTI of
 *   ZSCORE + HGETALL per id, node-redis's typed commands): the baseline, and what findMany sent first;
 * - `ZMSCORE`: hand-written node-redis sending what findMany sent next (one ZMSCORE of `all` with every id,
 *   then an HGETALL per id), the replies as node-redis gives them (no entities);
 * - `HGETALL per id`: hand-written node-redis sending findMany's own commands now, the replies as node-redis
 *   gives them (no entities);
 * - `findMany, chunkSize C` (calls of more than C ids only): findMany(ids, { chunkSize: C }).
 *
 * Every call's answers are checked. Per reader and call size: objects/s, this process's CPU per object and
 * Redis's main thread's (INFO cpu), medians over the rounds (the first is a warm-up, not counted), and the
 * ratios of findMany against the other two. All three run in this one process, the order rotating each round.
 *
 *   npx ts-node --transpile-only --project tsconfig.json bench/find-many.ts [--n=100000] [--rounds=6] [--chunk=1000]
 *
 * A private redis-server is started unless REDIS_URL is set; keys go under a fresh prefix, removed at the end.
 */
import 'reflect-metadata';
import { SuitePost } from './peers/redis-record-peer';
import { positiveInteger } from './support/args';
import { Client, describeRedis } from './support/bench-redis';
import { CallCost, callCosts } from './support/call-costs';
import { check, median } from './support/measure';
import { runBenchSession } from './support/bench-session';
import { printTable } from './support/table';
import { makePosts } from './workloads/posts';

const N = positiveInteger('n', 'N', 100_000);
const ROUNDS = positiveInteger('rounds', 'ROUNDS', 6);
const SEED = 11;
const CHUNK = positiveInteger('chunk', 'CHUNK', 1_000);
const SIZES = [...new Set([100, 1_000, N])].filter((size) => size <= N);

const CHUNKED = `findMany, chunkSize ${CHUNK}`;
const READERS = ['findMany', 'ZSCORE per id', 'ZMSCORE', 'HGETALL per id', CHUNKED];
type Reader = string;
/** The readers of calls of `size` ids: a chunkSize changes nothing in calls of at most that many. */
const readersOf = (size: number) => READERS.filter((reader) => reader !== CHUNKED || size > CHUNK);

/** Reads the posts `ids` in one call; resolves to each one's content (undefined where one is missing). */
type Read = (ids: readonly string[]) => Promise<Array<string | undefined>>;

function readers(client: Client, base: string): Record<Reader, Read> {
  const object = (id: string) => `${base}:obj:${id}`;
  const all = `${base}:all`;
  return {
    findMany: async (ids) => (await SuitePost.findMany(ids)).map((post) => post?.content),
    [CHUNKED]: async (ids) => (await SuitePost.findMany(ids, { chunkSize: CHUNK })).map((post) => post?.content),
    'ZSCORE per id': async (ids) => {
      const multi = client.multi();
      for (const id of ids) multi.zScore(all, id).hGetAll(object(id));
      const replies = (await multi.exec()) as unknown[];
      return ids.map((_, i) => (replies[2 * i] === null ? undefined : (replies[2 * i + 1] as Record<string, string>).content));
    },
    ZMSCORE: async (ids) => {
      const multi = client.multi() as unknown as { addCommand(args: string[]): unknown; exec(): Promise<unknown[]> };
      multi.addCommand(['ZMSCORE', all, ...ids]);
      for (const id of ids) multi.addCommand(['HGETALL', object(id)]);
      const replies = await multi.exec();
      const scores = replies[0] as unknown[];
      return ids.map((_, i) => (scores[i] === null ? undefined : (replies[1 + i] as Record<string, string>).content));
    },
    'HGETALL per id': async (ids) => {
      const multi = client.multi() as unknown as { addCommand(args: string[]): unknown; exec(): Promise<unknown[]> };
      for (const id of ids) multi.addCommand(['HGETALL', object(id)]);
      const replies = await multi.exec();
      return ids.map((id, i) => {
        const fields = replies[i] as Record<string, string>;
        return fields['#id'] === id ? fields.content : undefined;
      });
    },
  };
}

runBenchSession('findmany', async ({ url, prefix, raw, client }) => {
  const { posts } = makePosts(N, SEED, 0);
  const entities = posts.map((post) => SuitePost.build({ ...post, createdAt: new Date(post.createdAt) }));
  const stored = await SuitePost.saveMany(entities);
  check(stored.ok, 'saveMany failed');
  const ids = stored.saved.map((post) => String(post.id));
  const byRead = readers(client, `${prefix}:{SuitePost}`);
  const sizes = SIZES.map((size) => size.toLocaleString('en-US')).join(', ');
  console.log(`findMany of ${N.toLocaleString('en-US')} posts in calls of ${sizes} ids, ${ROUNDS} rounds, ${describeRedis(url)}`);

  /** One pass over every id in calls of `size`, its costs per object; the answers are checked after the clock. */
  const timed = async (reader: Reader, size: number): Promise<CallCost> => {
    const answers: Array<Array<string | undefined>> = [];
    const cost = await callCosts(raw, N, async () => {
      for (let from = 0; from < N; from += size) answers.push(await byRead[reader](ids.slice(from, from + size)));
    });
    answers.flat().forEach((content, i) => check(content === posts[i].content, `${reader}: post ${ids[i]} read wrong`));
    return cost;
  };

  const runs = new Map<string, CallCost[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < READERS.length; k++) {
      const reader = READERS[(k + round) % READERS.length];
      for (const size of SIZES.filter((size) => readersOf(size).includes(reader))) {
        const run = await timed(reader, size);
        if (round === 0) continue; // warm-up
        const key = `${reader}@${size}`;
        runs.set(key, [...(runs.get(key) ?? []), run]);
        const rate = Math.round(1e6 / run.wall).toLocaleString('en-US');
        console.log(
          `  round ${round}: ${reader} in calls of ${size}: ${rate} objects/s, client ${run.cpu.toFixed(1)} us, Redis ${run.redis.toFixed(1)} us per object`,
        );
      }
    }
  }

  const med = (reader: Reader, size: number, part: keyof CallCost) => median(runs.get(`${reader}@${size}`)!.map((run) => run[part]));
  const perSecond = (reader: Reader, size: number) => 1e6 / med(reader, size, 'wall');
  console.log('');
  printTable(
    ['ids per call', 'reader', 'objects/s', 'client CPU per object', 'Redis CPU per object', 'findMany vs this'],
    ['right', 'left', 'right', 'right', 'right', 'right'],
    SIZES.flatMap((size) =>
      readersOf(size).map((reader) => [
        size.toLocaleString('en-US'),
        reader,
        Math.round(perSecond(reader, size)).toLocaleString('en-US'),
        `${med(reader, size, 'cpu').toFixed(1)} us`,
        `${med(reader, size, 'redis').toFixed(1)} us`,
        reader === 'findMany' ? '' : `${(perSecond('findMany', size) / perSecond(reader, size)).toFixed(2)}x`,
      ]),
    ),
  );
});
