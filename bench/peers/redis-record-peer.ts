import 'reflect-metadata';
import { Attr, BaseEntity, connect, disconnect, Index, Model } from '../../src';
import type { PostData } from '../workloads/posts';
import { inFlight, ownVersion, Peer } from './peer';

/** The suite's post in redis-record: topic indexed by value, createdAt by time (types named for transpile-only runs). */
@Model({ name: 'SuitePost' })
export class SuitePost extends BaseEntity {
  @Attr({ type: 'string' }) author!: string;
  @Attr({ type: 'string' }) @Index() topic!: string;
  @Attr({ type: 'string' }) content!: string;
  @Attr({ type: 'date' }) @Index() createdAt!: Date;
}

/** The shape of `Model.saveMany` the bulk workload relies on: per-item failures reported, not thrown. */
type SaveMany = (
  this: typeof SuitePost,
  items: SuitePostAttributes[],
) => Promise<{ saved: SuitePost[]; failed?: ReadonlyArray<{ index: number; error: Error }> }>;

/** Creates in flight when saveMany is not there. */
const FALLBACK_IN_FLIGHT = 1000;

function saveManyOf(): SaveMany | undefined {
  const candidate = (SuitePost as unknown as { saveMany?: unknown }).saveMany;
  return typeof candidate === 'function' ? (candidate as SaveMany) : undefined;
}

/** A post's attributes as SuitePost takes them (createdAt as a Date). */
export const suitePostAttributes = (post: PostData) => ({
  author: post.author,
  topic: post.topic,
  content: post.content,
  createdAt: new Date(post.createdAt),
});

/** What suitePostAttributes gives: the items the bulk workload hands saveMany. */
export type SuitePostAttributes = ReturnType<typeof suitePostAttributes>;

/** redis-record through its ActiveRecord API, connected with its own client under `prefix`. */
export async function redisRecordPeer(url: string, prefix: string): Promise<Peer> {
  await connect({ url, prefix });
  let ids: string[] = [];
  let loaded: SuitePost[] = [];
  return {
    name: 'redis-record',
    version: ownVersion(),
    notes:
      'create/save/remove: one EVALSHA each (atomic with the index entries); saveMany: one INCRBY, then one MULTI per chunk; find: one HGETALL; count: ZCARD',
    keyPattern: `${prefix}:{SuitePost}:*`,
    keyRole: (key) => (key.includes('}:obj:') ? 'object' : 'index'),
    reset(size) {
      ids = new Array(size);
      loaded = new Array(size);
    },
    async create(post, i) {
      ids[i] = (await SuitePost.create(suitePostAttributes(post))).id;
    },
    count: () => SuitePost.count(),
    async load(i) {
      const post = await SuitePost.find(ids[i]);
      if (!post) throw new Error(`redis-record: post ${ids[i]} is missing`);
      loaded[i] = post;
      return post.content;
    },
    async update(content, i) {
      loaded[i].content = content;
      await loaded[i].save();
    },
    async remove(i) {
      await loaded[i].remove();
      loaded[i] = undefined as unknown as SuitePost;
    },
    async bulkCreate(posts, from, to) {
      const saveMany = saveManyOf();
      if (!saveMany) {
        await inFlight(
          from,
          to,
          FALLBACK_IN_FLIGHT,
          async (i) => void (ids[i] = (await SuitePost.create(suitePostAttributes(posts[i]))).id),
        );
        return;
      }
      // One call, as an application loading its data makes it: the posts' attributes, from which saveMany builds
      // the instances it hands back, chunking and pipelining the writes itself.
      const items = new Array<SuitePostAttributes>(to - from);
      for (let i = from; i < to; i++) items[i - from] = suitePostAttributes(posts[i]);
      const result = await saveMany.call(SuitePost, items);
      const failed = result.failed ?? [];
      if (failed.length > 0) throw new Error(`redis-record saveMany: ${failed.length} failed, first: ${failed[0].error.message}`);
      for (let i = from; i < to; i++) ids[i] = String(result.saved[i - from].id);
    },
    bulkMethod: () =>
      saveManyOf()
        ? "SuitePost.saveMany(attributes), one call with every post's attributes (its default chunks)"
        : `SuitePost.create() with ${FALLBACK_IN_FLIGHT} in flight (saveMany not available in this build)`,
    close: () => disconnect(),
  };
}
