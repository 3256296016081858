import { Attr, BaseEntity, Index, Model, QueryError, SortableString, Unique } from '../../src';
import { keysUnder, useTestRedis } from '../support/test-redis';

@Model()
class QPost extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr() @Index() score?: number;
  @Attr() @Index({ sortable: true }) title?: SortableString;
  @Attr() authorId?: string;
  @Attr() @Index({ scope: 'authorId' }) createdAt?: Date;
  @Attr() @Unique({ caseInsensitive: true }) email?: string;
  @Attr() body?: string;
}

const redis = useTestRedis();
const ids = (posts: Array<{ id: string }>) => posts.map((p) => p.id);

beforeAll(async () => {
  // ids 1..30: topic t0..t2 by id % 3, score id % 10 (ties!), title 'p' + id, author a0/a1, createdAt = id seconds
  for (let i = 1; i <= 30; i++) {
    await QPost.create({
      topic: `t${i % 3}`,
      score: i % 10,
      title: `p${String(i).padStart(2, '0')}`,
      authorId: `a${i % 2}`,
      createdAt: new Date(i * 1000),
      email: `User${i}@x.io`,
    });
  }
  await QPost.create({ topic: 't0' }); // id 31: no score, title, author or createdAt
});

describe('queries run inside Redis', () => {
  it('lists everything in id order, paged', async () => {
    expect(ids(await QPost.findBy({}, { limit: 3 }))).toEqual(['1', '2', '3']);
    expect(ids(await QPost.findBy(undefined, { offset: 29 }))).toEqual(['30', '31']);
    expect(await QPost.findBy({}, { offset: 100 })).toEqual([]);
    expect(await QPost.findBy({}, { limit: 0 })).toEqual([]);
  });

  it('answers equality, in, AND and OR', async () => {
    expect(ids(await QPost.findBy({ topic: 't1' }))).toEqual(['1', '4', '7', '10', '13', '16', '19', '22', '25', '28']);
    expect(await QPost.count({ topic: 't1' })).toBe(10);
    expect(ids(await QPost.findBy({ topic: 't1', score: { gte: 5 } }))).toEqual(['7', '16', '19', '25', '28']);
    expect(ids(await QPost.findBy({ score: { in: [0, 9] } }))).toEqual(['9', '10', '19', '20', '29', '30']);
    expect(ids(await QPost.findBy({ OR: [{ score: 1 }, { topic: 't2', score: { lt: 3 } }] }))).toEqual(['1', '2', '11', '20', '21']);
  });

  it('orders by a number with ties by id, and absent values last', async () => {
    expect(ids(await QPost.findBy({}, { orderBy: { score: 'desc' }, limit: 4 }))).toEqual(['31', '29', '19', '9']);
    expect(ids(await QPost.findBy({}, { orderBy: { score: 'asc' }, limit: 5 }))).toEqual(['10', '20', '30', '1', '11']);
    expect(ids(await QPost.findBy({}, { orderBy: { score: 'asc' }, offset: 29 }))).toEqual(['29', '31']);
    expect(ids(await QPost.findBy({ topic: 't0' }, { orderBy: { score: 'asc' } }))).toEqual([
      '30',
      '21',
      '12',
      '3',
      '24',
      '15',
      '6',
      '27',
      '18',
      '9',
      '31',
    ]);
  });

  it('reads sortable strings in lexicographic order, with ranges and startsWith', async () => {
    expect(ids(await QPost.findBy({ title: { startsWith: 'p2' } }))).toEqual(['20', '21', '22', '23', '24', '25', '26', '27', '28', '29']);
    expect(ids(await QPost.findBy({ title: { gt: 'p28' } }, { orderBy: { title: 'desc' } }))).toEqual(['30', '29']);
    expect(ids(await QPost.findBy({ topic: 't1' }, { orderBy: { title: 'desc' }, limit: 2 }))).toEqual(['28', '25']);
    expect(await QPost.count({ title: { gte: 'p10', lte: 'p12' } })).toBe(3);
  });

  it('pages a scoped index directly', async () => {
    const newest = await QPost.findBy({ authorId: 'a1' }, { orderBy: { createdAt: 'desc' }, limit: 3 });
    expect(ids(newest)).toEqual(['29', '27', '25']);
    const window = await QPost.findBy({ authorId: 'a0', createdAt: { gte: new Date(10000), lt: new Date(16000) } });
    expect(ids(window)).toEqual(['10', '12', '14']);
    expect(await QPost.count({ authorId: 'a0' })).toBe(15);
  });

  it('finds by a case-insensitive unique value', async () => {
    expect((await QPost.findOneBy({ email: 'user7@X.IO' }))?.id).toBe('7');
    expect(await QPost.findOneBy({ email: 'nobody@x.io' })).toBeNull();
  });

  it('iterates over every match in batches', async () => {
    const seen: string[] = [];
    for await (const post of QPost.iterate({ topic: 't0' }, { batchSize: 3 })) seen.push(post.id);
    expect(seen).toEqual(['3', '6', '9', '12', '15', '18', '21', '24', '27', '30', '31']);
  });

  it('refuses what no index can answer', async () => {
    await expect(QPost.findBy({ body: 'x' } as never)).rejects.toThrow(QueryError);
    await expect(QPost.findBy({}, { orderBy: { createdAt: 'asc' } })).rejects.toThrow(/scoped by authorId/);
  });

  it('leaves no temporary key behind', async () => {
    const keys = await keysUnder(redis.raw, redis.prefix);
    expect(keys.filter((key) => key.includes(':tmp:'))).toEqual([]);
  });
});
