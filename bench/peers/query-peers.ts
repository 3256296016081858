import 'reflect-metadata';
import { NohmClass } from 'nohm';
import { Attr, BaseEntity, Index, Model } from '../../src';
import { check } from '../support/measure';
import { checkQ2, Q1_MAX, Q1_MIN, Q1_TOPIC, Q4_AUTHORS, QueryLibrary, QueryPost, sameNumbers, TOP } from '../workloads/query-data';
import type { IORedisClient } from './nohm-peer';

/** Creates in flight while loading the data. */
const LOAD_IN_FLIGHT = 1000;

async function loadInBatches(from: number, to: number, create: (i: number) => Promise<unknown>): Promise<void> {
  for (let start = from; start < to; start += LOAD_IN_FLIGHT) {
    const batch: Promise<unknown>[] = [];
    for (let i = start; i < Math.min(to, start + LOAD_IN_FLIGHT); i++) batch.push(create(i));
    await Promise.all(batch);
  }
}

@Model({ name: 'SuiteQueryPost' })
class RecordQueryPost extends BaseEntity {
  @Attr({ type: 'string' }) @Index() topic!: string;
  // The plain index serves "top 20 by score"; the one scoped by topic answers "topic = t3 AND score 100..200"
  // from one sorted set.
  @Attr({ type: 'number' }) @Index() @Index({ scope: 'topic' }) score!: number;
  @Attr({ type: 'string' }) authorId!: string;
  @Attr({ type: 'date' }) @Index({ scope: 'authorId' }) createdAt!: Date;
}

/** redis-record on the connection the suite opened (connect() is global). */
export const recordQueries: QueryLibrary = {
  label: 'redis-record',
  load: (posts, from, to) =>
    loadInBatches(from, to, (i) => RecordQueryPost.create({ ...posts[i], createdAt: new Date(posts[i].createdAt) })),
  async query(key, rep, expected) {
    const where = { topic: Q1_TOPIC, score: { gte: Q1_MIN, lte: Q1_MAX } };
    if (key === 'Q1') {
      const ids = await RecordQueryPost.findIds(where);
      check(ids.length === expected.q1Count, `redis-record Q1 returned ${ids.length} ids, expected ${expected.q1Count}`);
    } else if (key === 'Q2') {
      checkQ2('redis-record', await RecordQueryPost.findBy(where), expected);
    } else if (key === 'Q3') {
      const top = await RecordQueryPost.findBy({}, { orderBy: { score: 'desc' }, limit: TOP });
      check(
        sameNumbers(
          top.map((post) => post.score),
          expected.topScores,
        ),
        'redis-record Q3 scores differ from the data',
      );
    } else {
      const author = Q4_AUTHORS[rep % Q4_AUTHORS.length];
      const newest = await RecordQueryPost.findBy({ authorId: author }, { orderBy: { createdAt: 'desc' }, limit: TOP });
      const times = newest.map((post) => post.createdAt.getTime());
      check(sameNumbers(times, expected.newest(author)), `redis-record Q4 createdAt of ${author} differ from the data`);
    }
  },
};

/** nohm with every queried property indexed, its own instance under `prefix` on the ioredis client. */
export function nohmQueries(client: IORedisClient, prefix: string): QueryLibrary {
  const nohm = new NohmClass({ prefix, client: client as never, publish: false });
  const Post = nohm.model('SuiteQueryPost', {
    properties: {
      topic: { type: 'string', index: true },
      score: { type: 'integer', index: true },
      authorId: { type: 'string', index: true },
      createdAt: { type: 'timestamp', index: true },
    },
    idGenerator: 'increment',
  });
  const props = (models: Array<{ allProperties(): unknown }>) => models.map((model) => model.allProperties() as QueryPost);
  const range = { min: Q1_MIN, max: Q1_MAX, endpoints: '[]' as const };
  return {
    label: 'nohm',
    load: (posts, from, to) =>
      loadInBatches(from, to, (i) => {
        const model = new Post();
        model.property(posts[i] as unknown as Record<string, unknown>);
        return model.save();
      }),
    async query(key, rep, expected) {
      if (key === 'Q1') {
        const ids = await Post.find({ topic: Q1_TOPIC, score: range });
        check(ids.length === expected.q1Count, `nohm Q1 returned ${ids.length} ids, expected ${expected.q1Count}`);
      } else if (key === 'Q2') {
        checkQ2('nohm', props(await Post.findAndLoad({ topic: Q1_TOPIC, score: range })), expected);
      } else if (key === 'Q3') {
        const ids = await Post.sort({ field: 'score', direction: 'DESC', limit: [0, TOP] });
        const top = props(await Post.loadMany(ids));
        check(
          sameNumbers(
            top.map((post) => post.score),
            expected.topScores,
          ),
          'nohm Q3 scores differ from the data',
        );
      } else {
        const author = Q4_AUTHORS[rep % Q4_AUTHORS.length];
        const ids = await Post.find({ authorId: author });
        const newestIds = await Post.sort({ field: 'createdAt', direction: 'DESC', limit: [0, TOP] }, ids);
        const newest = props(await Post.loadMany(newestIds));
        check(
          sameNumbers(
            newest.map((post) => Number(post.createdAt)),
            expected.newest(author),
          ),
          `nohm Q4 createdAt of ${author} differ from the data`,
        );
      }
    },
  };
}
