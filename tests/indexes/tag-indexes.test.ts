import { Attr, BaseEntity, Index, Model, QueryError } from '../../src';
import { keysUnder, useTestRedis } from '../support/test-redis';

@Model()
class Article extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr({ type: 'json' }) @Index({ each: true }) tags?: string[];
}

const redis = useTestRedis();

describe('tag indexes', () => {
  it('answers has, hasAny and hasAll and keeps entries with every write', async () => {
    const a = await Article.create({ topic: 'db', tags: ['redis', 'lua'] });
    const b = await Article.create({ topic: 'db', tags: ['sql'] });
    const c = await Article.create({ topic: 'web', tags: ['redis', 'http', 'redis'] });
    const ids = async (where: object) => (await Article.findIds(where as never)).sort();
    expect(await ids({ tags: { has: 'redis' } })).toEqual([a.id, c.id]);
    expect(await ids({ tags: { hasAny: ['sql', 'http'] } })).toEqual([b.id, c.id]);
    expect(await ids({ tags: { hasAll: ['redis', 'lua'] } })).toEqual([a.id]);
    expect(await ids({ tags: { has: 'redis' }, topic: 'web' })).toEqual([c.id]);
    expect(await ids({ OR: [{ tags: { has: 'sql' } }, { topic: 'web' }] })).toEqual([b.id, c.id]);
    a.tags = ['sql'];
    await a.save();
    expect(await ids({ tags: { has: 'lua' } })).toEqual([]);
    expect(await ids({ tags: { has: 'sql' } })).toEqual([a.id, b.id]);
    await c.remove();
    expect(await ids({ tags: { has: 'redis' } })).toEqual([]);
    expect((await Article.check()).violations).toEqual([]);
    const keys = await keysUnder(redis.raw, redis.prefix);
    expect(keys.filter((key) => key.includes(':idx:tags:')).map((key) => key.split(':idx:tags:')[1])).toEqual(['sql']);
    await expect(Article.findIds({ topic: { has: 'x' } } as never)).rejects.toThrow(QueryError);
  });

  it('answers exists from the nil set: objects whose array holds no element', async () => {
    const none = await Article.create({ topic: 'x' });
    const empty = await Article.create({ topic: 'x', tags: [] });
    const some = await Article.create({ topic: 'x', tags: ['a'] });
    const ids = async (where: object) => (await Article.findIds({ topic: 'x', ...where } as never)).sort();
    expect(await ids({ tags: { exists: false } })).toEqual([none.id, empty.id].sort());
    expect(await ids({ tags: { exists: true } })).toEqual([some.id]);
    expect(await ids({ tags: { exists: true, has: 'b' } })).toEqual([]);
    some.tags = [];
    await some.save();
    expect(await ids({ tags: { exists: false } })).toEqual([none.id, empty.id, some.id].sort());
    empty.tags = ['b'];
    await empty.save();
    expect(await ids({ tags: { exists: true } })).toEqual([empty.id]);
    expect(await redis.raw.sMembers(`${redis.prefix}:{Article}:nil:tags`)).not.toContain(empty.id);
    expect(await Article.countBy('tags', { topic: 'x' })).toEqual({ b: 1 });
    expect(await Article.countBy('tags')).toEqual({ sql: 2, b: 1 });
    expect((await Article.check()).violations).toEqual([]);
  });
});
