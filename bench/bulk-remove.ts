/**
 * Bulk remove: N of the suite's posts (bench/workloads/posts.ts, about 1 KB each, two indexed attributes)
 * stored by redis-record, then every one of them removed, by three writers taking turns:
 *
 * - `removeMany`: redis-record, `Post.removeMany(ids)` with every id;
 * - `remove(), 250 in flight`: redis-record, `remove()` of each loaded instance, 250 under way at once (one
 *   script call per object);
 * - `MULTI of removals`: hand-written node-redis, one MULTI per 250 posts of SREM, ZREM, ZREM and DEL per post
 *   (given as argument lists, node-redis's cheapest way in), three in flight, its index entries taken from the
 *   client's copy of the post rather than from Redis: no read at all (a post whose topic another client
 *   changed would leave its new entry behind), the least Redis can be asked to do for these removals.
 *
 * Before each run the posts are stored anew (saveMany, not timed); after it, the count must be 0 and no key of
 * the model but its id sequence may be left. Per writer: removals/s, this process's CPU per removal and Redis's main
 * thread's (INFO cpu), medians over the rounds (the first is a warm-up, not counted), and removeMany's ratio
 * against each. All three run in this one process, the order rotating each round.
 *
 * With `--ttl` the posts have a time to live (a day): each keeps a memo of its entries and an `exp` entry,
 * which every writer removes too.
 *
 *   npx ts-node --transpile-only --project tsconfig.json bench/bulk-remove.ts [--n=100000] [--rounds=6] [--ttl]
 *
 * A private redis-server is started unless REDIS_URL is set; keys go under a fresh prefix, removed at the end.
 */
import 'reflect-metadata';
import { Attr, BaseEntity, Index, Model } from '../src';
import { inFlight } from './peers/peer';
import { SuitePost } from './peers/redis-record-peer';
import { option, positiveInteger } from './support/args';
import { Client, describeRedis } from './support/bench-redis';
import { CallCost, callCosts } from './support/call-costs';
import { check } from './support/measure';
import { runBenchSession } from './support/bench-session';
import { printWriterTable, writerTurns } from './support/writer-turns';
import { makePosts, PostData } from './workloads/posts';

const N = positiveInteger('n', 'N', 100_000);
const ROUNDS = positiveInteger('rounds', 'ROUNDS', 6);
const SEED = 17;
/** Calls under way at once for remove(), posts per MULTI and MULTIs in flight for the hand-written writer. */
const IN_FLIGHT = 250;
const MULTI_SIZE = 250;
const MULTIS_IN_FLIGHT = 3;

/** The suite's post with a time to live of a day: each object keeps a memo of its entries and an `exp` entry. */
@Model({ name: 'ExpiringSuitePost', ttl: 86_400 })
class ExpiringSuitePost extends BaseEntity {
  @Attr({ type: 'string' }) author!: string;
  @Attr({ type: 'string' }) @Index() topic!: string;
  @Attr({ type: 'string' }) content!: string;
  @Attr({ type: 'date' }) @Index() createdAt!: Date;
}

/** `--ttl`: the posts expire (ExpiringSuitePost), else the suite's SuitePost. */
const EXPIRING = option('ttl', 'TTL') !== undefined;
const Post: typeof SuitePost = EXPIRING ? (ExpiringSuitePost as typeof SuitePost) : SuitePost;
const MODEL_NAME = EXPIRING ? 'ExpiringSuitePost' : 'SuitePost';

const WRITERS = ['removeMany', 'remove(), 250 in flight', 'MULTI of removals'] as const;
type Writer = (typeof WRITERS)[number];
const UNITS = { one: 'removal', many: 'removals' };

/** Removes the stored posts: `loaded[i]` is the instance of `posts[i]`. */
type Remove = (loaded: readonly SuitePost[]) => Promise<void>;

function writers(client: Client, base: string, posts: readonly PostData[]): Record<Writer, Remove> {
  return {
    removeMany: async (loaded) => {
      const result = await Post.removeMany(loaded.map((post) => post.id!));
      check(
        result.ok && result.removed.length === loaded.length,
        `removeMany: ${result.removed.length} removed, ${result.failed.length} failed`,
      );
    },
    'remove(), 250 in flight': (loaded) => inFlight(0, loaded.length, IN_FLIGHT, (i) => loaded[i].remove()),
    'MULTI of removals': async (loaded) => {
      const chunks = Math.ceil(loaded.length / MULTI_SIZE);
      await inFlight(0, chunks, MULTIS_IN_FLIGHT, async (c) => {
        const multi = client.multi();
        for (let i = c * MULTI_SIZE; i < Math.min(loaded.length, (c + 1) * MULTI_SIZE); i++) {
          const id = loaded[i].id!;
          multi
            .addCommand(['SREM', `${base}:idx:topic:${posts[i].topic}`, id])
            .addCommand(['ZREM', `${base}:idx:createdAt`, id])
            .addCommand(['ZREM', `${base}:all`, id])
            .addCommand(['DEL', `${base}:obj:${id}`]);
          if (EXPIRING) multi.addCommand(['DEL', `${base}:memo:${id}`]).addCommand(['ZREM', `${base}:exp`, id]);
        }
        await multi.exec();
      });
    },
  };
}

runBenchSession('bulkremove', async ({ url, prefix, raw, client }) => {
  const { posts } = makePosts(N, SEED, 0);
  const base = `${prefix}:{${MODEL_NAME}}`;
  const byWriter = writers(client, base, posts);
  const kind = EXPIRING ? 'expiring posts (a ttl: a memo and an `exp` entry each)' : 'posts';
  console.log(`bulk remove of ${N.toLocaleString('en-US')} ${kind}, ${ROUNDS} rounds, ${describeRedis(url)}`);

  const store = async (): Promise<SuitePost[]> => {
    const stored = await Post.saveMany(posts.map((post) => Post.build({ ...post, createdAt: new Date(post.createdAt) })));
    check(stored.ok, 'saveMany failed');
    return stored.saved as SuitePost[];
  };
  const timed = async (writer: Writer): Promise<CallCost> => {
    const loaded = await store();
    const cost = await callCosts(raw, N, () => byWriter[writer](loaded));
    check((await Post.count()) === 0, `${writer}: posts left`);
    const left = (await raw.keys(`${base}:*`)).filter((key) => key !== `${base}:seq`);
    check(left.length === 0, `${writer}: ${left.length} keys left, such as ${left[0]}`);
    return cost;
  };

  const runs = await writerTurns(WRITERS, ROUNDS, UNITS, (writer) => timed(writer));
  printWriterTable(WRITERS, runs, 'removeMany', UNITS);
});
