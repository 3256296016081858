/**
 * Bulk update: N of the suite's posts (bench/workloads/posts.ts, about 1 KB each) stored by redis-record, then
 * every post's content changed and written back, by four writers taking turns:
 *
 * - `saveMany`: redis-record, `Post.saveMany(loaded)` with every loaded instance changed;
 * - `save(), 250 in flight`: redis-record, one `save()` per instance, 250 under way at once (one script call
 *   per object);
 * - `guarded HSET per post`: hand-written node-redis, one EVALSHA per post of the suite's guarded update
 *   (bench/support/guarded-hset.ts: HSET only while the post is listed in `all`, as a save of a stored object
 *   never revives a removed one), 250 under way at once: the baseline with the same guarantee per object;
 * - `MULTI of HSETs`: hand-written node-redis, one MULTI of plain HSETs per 250 posts, three in flight: no
 *   check at all (it would bring back a removed post), the ceiling for these writes.
 *
 * After each run every post is read back (findMany) and its content checked. Per writer: updates/s, this
 * process's CPU per update and Redis's main thread's (INFO cpu), medians over the rounds (the first is a
 * warm-up, not counted), and saveMany's ratio against each. All four run in this one process, the order
 * rotating each round.
 *
 *   npx ts-node --transpile-only --project tsconfig.json bench/bulk-update.ts [--n=100000] [--rounds=6]
 *
 * A private redis-server is started unless REDIS_URL is set; keys go under a fresh prefix, removed at the end.
 */
import 'reflect-metadata';
import { inFlight } from './peers/peer';
import { SuitePost } from './peers/redis-record-peer';
import { positiveInteger } from './support/args';
import { Client, describeRedis } from './support/bench-redis';
import { CallCost, callCosts } from './support/call-costs';
import { GUARDED_HSET } from './support/guarded-hset';
import { check } from './support/measure';
import { runBenchSession } from './support/bench-session';
import { printWriterTable, writerTurns } from './support/writer-turns';
import { makePosts } from './workloads/posts';

const N = positiveInteger('n', 'N', 100_000);
const ROUNDS = positiveInteger('rounds', 'ROUNDS', 6);
const SEED = 13;
/** Calls under way at once for the writers with one call per post, posts per MULTI for the MULTI writer. */
const IN_FLIGHT = 250;
const MULTI_SIZE = 250;
const MULTIS_IN_FLIGHT = 3;

const WRITERS = ['saveMany', 'save(), 250 in flight', 'guarded HSET per post', 'MULTI of HSETs'] as const;
type Writer = (typeof WRITERS)[number];
const UNITS = { one: 'update', many: 'updates' };

/** Writes `contents[i]` as the content of post i, for every post. */
type Write = (contents: readonly string[]) => Promise<void>;

function writers(client: Client, base: string, loaded: SuitePost[], ids: readonly string[], guardSha: string): Record<Writer, Write> {
  const all = `${base}:all`;
  const object = (id: string) => `${base}:obj:${id}`;
  const change = (contents: readonly string[]) => loaded.forEach((post, i) => (post.content = contents[i]));
  return {
    saveMany: async (contents) => {
      change(contents);
      const result = await SuitePost.saveMany(loaded);
      check(result.ok, `saveMany: ${result.failed.length} failed, first: ${result.failed[0]?.error.message}`);
    },
    'save(), 250 in flight': async (contents) => {
      change(contents);
      await inFlight(0, loaded.length, IN_FLIGHT, (i) => loaded[i].save());
    },
    'guarded HSET per post': async (contents) => {
      await inFlight(0, ids.length, IN_FLIGHT, async (i) => {
        const written = await client.evalSha(guardSha, { keys: [all, object(ids[i])], arguments: [ids[i], 'content', contents[i]] });
        check(written === 1, `guarded HSET: post ${ids[i]} is gone`);
      });
    },
    'MULTI of HSETs': async (contents) => {
      const chunks = Math.ceil(ids.length / MULTI_SIZE);
      await inFlight(0, chunks, MULTIS_IN_FLIGHT, async (c) => {
        const multi = client.multi();
        for (let i = c * MULTI_SIZE; i < Math.min(ids.length, (c + 1) * MULTI_SIZE); i++)
          multi.hSet(object(ids[i]), 'content', contents[i]);
        await multi.exec();
      });
    },
  };
}

runBenchSession('bulkupdate', async ({ url, prefix, raw, client }) => {
  const { posts, newContent } = makePosts(N, SEED);
  const stored = await SuitePost.saveMany(posts.map((post) => SuitePost.build({ ...post, createdAt: new Date(post.createdAt) })));
  check(stored.ok, 'saveMany failed');
  const loaded = stored.saved as SuitePost[];
  const ids = loaded.map((post) => String(post.id));
  const guardSha = await client.scriptLoad(GUARDED_HSET);
  const byWriter = writers(client, `${prefix}:{SuitePost}`, loaded, ids, guardSha);
  console.log(`bulk update of ${N.toLocaleString('en-US')} posts (content), ${ROUNDS} rounds, ${describeRedis(url)}`);

  /** The contents of one run: the new contents, their last two characters marking the run (same sizes). */
  const contentsOf = (round: number, k: number) => {
    const mark = String.fromCharCode(65 + (round % 26)) + String.fromCharCode(97 + k);
    return newContent.map((content) => content.slice(0, -2) + mark);
  };
  const timed = async (writer: Writer, contents: readonly string[]): Promise<CallCost> => {
    const cost = await callCosts(raw, N, () => byWriter[writer](contents));
    const read = await SuitePost.findMany(ids, { chunkSize: 1000 });
    read.forEach((post, i) => check(post?.content === contents[i], `${writer}: post ${ids[i]} holds the wrong content`));
    return cost;
  };

  const runs = await writerTurns(WRITERS, ROUNDS, UNITS, (writer, round, turn) => timed(writer, contentsOf(round, turn)));
  printWriterTable(WRITERS, runs, 'saveMany', UNITS);
});
