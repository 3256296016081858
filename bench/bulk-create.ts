/**
 * Bulk create: N posts (author, topic with an @Index, content, createdAt Date with an @Index) written by
 * `Model.saveMany` and by hand-written node-redis code doing the same writes (ids reserved with one INCRBY,
 * then per post a MULTI of HSET + ZADD all + SADD topic index + ZADD createdAt index, pipelined). The two
 * alternate, the order flipping every repetition; the database is emptied between runs; each run's count is
 * checked. Prints objects/s per run and the medians. Both run in this one process, so they share V8's
 * allocation-site decisions (docs/bulk-operations.md, "one process per writer"): a quick comparison while
 * working; the suite's figures, each writer in a process of its own, are the ones to quote.
 *
 *   npx ts-node --transpile-only --project tsconfig.json bench/bulk-create.ts [--n=100000] [--reps=3] [--chunk=250]
 *
 * A private redis-server is started unless REDIS_URL is set; keys go under a fresh prefix, removed at the end.
 */
import 'reflect-metadata';
import { Attr, BaseEntity, connect, disconnect, Index, Model } from '../src';
import { SAVE_CHUNK_SIZE } from '../src/entity/bulk/bulk-options';
import { seeded } from '../tools/seeded-random';
import { positiveInteger } from './support/args';
import { Client, connectedClient, deleteKeys, describeRedis, forgetPrefix, randomHex, redisForRun } from './support/bench-redis';
import { check, median } from './support/measure';

const N = positiveInteger('n', 'N', 100_000);
const REPS = positiveInteger('reps', 'REPS', 3);
const CHUNK = positiveInteger('chunk', 'CHUNK', SAVE_CHUNK_SIZE);
/** Posts per MULTI batch awaited by the hand-written code (its pipeline window). */
const HAND_WINDOW = 1000;

@Model({ name: 'BulkBenchPost' })
class BulkBenchPost extends BaseEntity {
  @Attr() author!: string;
  @Attr() @Index() topic!: string;
  @Attr() content!: string;
  @Attr() @Index() createdAt!: Date;
}

interface PostData {
  author: string;
  topic: string;
  content: string;
  createdAt: Date;
}

function makePosts(count: number): PostData[] {
  const random = seeded(42);
  const word = (length: number) => {
    let text = '';
    for (let i = 0; i < length; i++) text += String.fromCharCode(97 + Math.floor(random() * 26));
    return text;
  };
  return Array.from({ length: count }, () => ({
    author: word(5 + Math.floor(random() * 10)),
    topic: `t${Math.floor(random() * 20)}`,
    content: word(100 + Math.floor(random() * 200)),
    createdAt: new Date(1_700_000_000_000 + Math.floor(random() * 1e10)),
  }));
}

async function viaSaveMany(posts: readonly PostData[]): Promise<number> {
  const entities = posts.map((post) => BulkBenchPost.build(post));
  const began = process.hrtime.bigint();
  const result = await BulkBenchPost.saveMany(entities, { chunkSize: CHUNK });
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  check(
    result.ok && result.saved.length === posts.length,
    `saveMany failed ${result.failed.length} items: ${result.failed[0]?.error.message}`,
  );
  return seconds;
}

async function viaHandWritten(client: Client, prefix: string, posts: readonly PostData[]): Promise<number> {
  const base = `${prefix}:{HandBulkPost}`;
  const began = process.hrtime.bigint();
  const last = Number(await client.incrBy(`${base}:seq`, posts.length));
  const first = last - posts.length + 1;
  for (let from = 0; from < posts.length; from += HAND_WINDOW) {
    const writes: Array<Promise<unknown>> = [];
    for (let i = from; i < Math.min(from + HAND_WINDOW, posts.length); i++) {
      const post = posts[i];
      const id = String(first + i);
      const created = post.createdAt.getTime();
      writes.push(
        client
          .multi()
          .hSet(`${base}:obj:${id}`, {
            '#id': id,
            author: post.author,
            topic: post.topic,
            content: post.content,
            createdAt: String(created),
          })
          .zAdd(`${base}:all`, { score: Number(id), value: id })
          .sAdd(`${base}:idx:topic:${post.topic}`, id)
          .zAdd(`${base}:idx:createdAt`, { score: created, value: id })
          .exec(),
      );
    }
    await Promise.all(writes);
  }
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  check(Number(await client.zCard(`${base}:all`)) === posts.length, 'hand-written: wrong count');
  return seconds;
}

/** Waits until Redis has freed what UNLINK handed to its background thread, so no run pays for the last. */
async function settled(client: Client): Promise<void> {
  for (;;) {
    const pending = /lazyfree_pending_objects:(\d+)/.exec(await client.info('memory'));
    if (!pending || pending[1] === '0') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function main(): Promise<void> {
  const redis = await redisForRun();
  const prefix = `bulk${randomHex()}`;
  const client = await connectedClient(redis.url);
  try {
    await connect({ url: redis.url, prefix });
    const posts = makePosts(N);
    console.log(`bulk create of ${N.toLocaleString('en-US')} posts, ${REPS} repetitions, chunk ${CHUNK}, ${describeRedis(redis.url)}`);
    await viaSaveMany(posts.slice(0, 2000)); // warm-up: script loaded, code paths compiled
    await viaHandWritten(client, prefix, posts.slice(0, 2000));
    await deleteKeys(client, prefix);
    await settled(client);
    const runs: Record<'saveMany' | 'hand-written', number[]> = { saveMany: [], 'hand-written': [] };
    for (let rep = 0; rep < REPS; rep++) {
      const order = rep % 2 === 0 ? (['saveMany', 'hand-written'] as const) : (['hand-written', 'saveMany'] as const);
      for (const label of order) {
        const cpu = process.cpuUsage();
        const seconds = label === 'saveMany' ? await viaSaveMany(posts) : await viaHandWritten(client, prefix, posts);
        const used = process.cpuUsage(cpu);
        const nodeUs = (used.user + used.system) / N;
        if (label === 'saveMany') check((await BulkBenchPost.count()) === N, 'saveMany: wrong count');
        runs[label].push(seconds);
        console.log(
          `  ${rep + 1}/${REPS} ${label.padEnd(12)} ${Math.round(N / seconds)
            .toLocaleString('en-US')
            .padStart(9)} objects/s  (Node CPU ${nodeUs.toFixed(1)} us/object)`,
        );
        await deleteKeys(client, prefix);
        await settled(client);
      }
    }
    const rate = (label: keyof typeof runs) => N / median(runs[label]);
    console.log(
      `median: saveMany ${Math.round(rate('saveMany')).toLocaleString('en-US')} objects/s, hand-written ${Math.round(rate('hand-written')).toLocaleString('en-US')} objects/s (saveMany / hand-written = ${(rate('saveMany') / rate('hand-written')).toFixed(2)})`,
    );
  } finally {
    await disconnect();
    await forgetPrefix(client, prefix);
    await client.close();
    await redis.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
