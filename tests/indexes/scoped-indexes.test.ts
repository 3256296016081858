import { Attr, BaseEntity, Index, Model, QueryError, SortableString } from '../../src';
import { expectIndexesConsistent, temporaryKeys } from '../support/index-consistency';
import { expectedIds, Row } from '../support/query-oracle';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * Scoped (composite) indexes: one sorted index per value of the scope attribute, e.g. each user's posts by
 * time. Newest-N and ranges within one scope value, objects moving between scope values, and objects
 * without a scope value, which are in no scoped index.
 */

@Model()
class ScopedPost extends BaseEntity {
  @Attr() userId?: string; // no index of its own: equality on it is answered by the scoped index
  @Attr() @Index({ scope: 'userId' }) postedAt?: Date;
  @Attr() @Index({ sortable: true, scope: 'userId' }) title?: SortableString;
  @Attr() room?: number;
  @Attr() @Index({ scope: 'room' }) points?: number;
  @Attr() @Index() pinned?: boolean;
}

const redis = useTestRedis();
const rows: Row[] = [];
const USERS = ['u1', 'u2', 'u3'];
const t = (minute: number) => new Date(Date.UTC(2024, 5, 1, 12, minute));

beforeAll(async () => {
  for (let i = 1; i <= 45; i++) {
    const input = {
      userId: i % 9 === 0 ? undefined : USERS[i % 3],
      postedAt: i % 11 === 0 ? undefined : t(i % 4 === 0 ? 0 : i), // ties at minute 0
      title: i % 13 === 0 ? undefined : `post ${String(50 - i).padStart(2, '0')}`,
      room: i % 7 === 0 ? undefined : i % 2,
      points: i % 5,
      pinned: i % 6 === 0,
    };
    const post = await ScopedPost.create(input);
    rows.push({ id: post.id, ...input });
  }
});

const check = async (where: Record<string, unknown>, options: Record<string, unknown> = {}) =>
  expect(await ScopedPost.findIds(where as never, options as never)).toEqual(expectedIds(rows, where, options as never));

describe('within one scope value', () => {
  it('the newest N of each user', async () => {
    for (const userId of USERS) {
      for (const limit of [1, 3, 100]) {
        const newest = await ScopedPost.findBy({ userId }, { orderBy: { postedAt: 'desc' }, limit });
        expect(newest.map((post) => post.id)).toEqual(expectedIds(rows, { userId }, { orderBy: { postedAt: 'desc' }, limit }));
        expect(newest.every((post) => post.userId === userId)).toBe(true);
      }
      await check({ userId }, { orderBy: { postedAt: 'asc' }, offset: 2, limit: 4 });
      await check({ userId }, { orderBy: { title: 'asc' } });
      await check({ userId }, { orderBy: { title: 'desc' }, offset: 1, limit: 2 });
    }
  });

  it('a range within the scope, ordered or not', async () => {
    for (const userId of USERS) {
      await check({ userId, postedAt: { gte: t(10), lt: t(30) } });
      await check({ userId, postedAt: { gt: t(0) } }, { orderBy: { postedAt: 'desc' }, limit: 3 });
      await check({ userId, postedAt: { lte: t(0) } }, { orderBy: { postedAt: 'asc' } });
      await check({ userId, title: { startsWith: 'post 3' } }, { orderBy: { title: 'asc' } });
      await check({ userId, title: { gte: 'post 1', lt: 'post 4' } }, { orderBy: { postedAt: 'desc' } });
    }
  });

  it('counts per scope value', async () => {
    for (const userId of USERS) {
      expect(await ScopedPost.count({ userId })).toBe(expectedIds(rows, { userId }).length);
      expect(await ScopedPost.count({ userId, postedAt: { gte: t(20) } })).toBe(
        expectedIds(rows, { userId, postedAt: { gte: t(20) } }).length,
      );
    }
    expect(await ScopedPost.count({ userId: 'nobody' })).toBe(0);
    expect(await ScopedPost.count({ userId: { in: ['u1', 'u2'] } })).toBe(expectedIds(rows, { userId: { in: ['u1', 'u2'] } }).length);
  });

  it('numbers as scope values', async () => {
    for (const room of [0, 1]) {
      await check({ room }, { orderBy: { points: 'desc' } });
      await check({ room, points: { gte: 2, lt: 4 } }, { orderBy: { points: 'asc' }, offset: 1 });
    }
  });

  it('the scope combined with other conditions, or pinned inside OR branches', async () => {
    await check({ userId: 'u1', pinned: false }, { orderBy: { postedAt: 'desc' }, limit: 5 });
    await check({ userId: 'u2', OR: [{ postedAt: { lt: t(10) } }, { postedAt: { gte: t(40) } }] }, { orderBy: { postedAt: 'asc' } });
    await check({
      OR: [
        { userId: 'u1', postedAt: { gte: t(30) } },
        { userId: 'u2', title: { startsWith: 'post 0' } },
      ],
    });
    await check({ OR: [{ userId: 'u1' }, { room: 0, points: 4 }] });
    await check({ room: 1, OR: [{ userId: 'u1', postedAt: { lt: t(20) } }, { points: 0 }] }, { orderBy: { points: 'desc' } });
  });

  it('objects without the scoped value come last in asc within their scope, and match no range', async () => {
    const undated = expectedIds(rows, { userId: 'u2' }).filter((id) => rows.find((row) => row.id === id)!.postedAt === undefined);
    expect(undated.length).toBeGreaterThan(0);
    const asc = await ScopedPost.findIds({ userId: 'u2' }, { orderBy: { postedAt: 'asc' } });
    expect(asc.slice(-undated.length)).toEqual(undated);
    expect(await ScopedPost.findIds({ userId: 'u2', postedAt: { gte: new Date(-8.64e15) } })).not.toEqual(expect.arrayContaining(undated));
  });
});

describe('objects without a scope value', () => {
  it('are in no scoped index, but still found by other queries', async () => {
    const loose = rows.filter((row) => row.userId === undefined).map((row) => row.id);
    expect(loose.length).toBeGreaterThan(0);
    const base = `${redis.prefix}:{ScopedPost}`;
    const scoped = (await keysUnder(redis.raw, base)).filter((key) => key.includes('@userId:'));
    for (const key of scoped) {
      const members = key.includes(':lex:')
        ? (await redis.raw.zRange(key, 0, -1)).map((m) => m.slice(m.lastIndexOf('\0') + 2))
        : await redis.raw.zRange(key, 0, -1);
      expect(members).not.toEqual(expect.arrayContaining([loose[0]]));
    }
    expect(await ScopedPost.findIds({}, {})).toEqual(expect.arrayContaining(loose));
    await check({ pinned: true });
  });
});

describe('moving between scope values', () => {
  it('moves the object from one scoped index to the other', async () => {
    const post = await ScopedPost.create({ userId: 'mover-a', postedAt: t(59), title: 'moving', room: 5, points: 9 });
    expect(await ScopedPost.findIds({ userId: 'mover-a' }, { orderBy: { postedAt: 'desc' } })).toEqual([post.id]);
    post.userId = 'mover-b';
    post.room = 6;
    await post.save();
    expect(await ScopedPost.findIds({ userId: 'mover-a' }, { orderBy: { postedAt: 'desc' } })).toEqual([]);
    expect(await ScopedPost.findIds({ userId: 'mover-b' }, { orderBy: { title: 'asc' } })).toEqual([post.id]);
    expect(await ScopedPost.findIds({ room: 6, points: 9 })).toEqual([post.id]);
    expect(await ScopedPost.count({ room: 5 })).toBe(0);
    const base = `${redis.prefix}:{ScopedPost}`;
    expect(
      await redis.raw.exists([`${base}:idx:postedAt@userId:mover-a`, `${base}:lex:title@userId:mover-a`, `${base}:idx:points@room:5`]),
    ).toBe(0);
    await expectIndexesConsistent(ScopedPost, redis.raw, redis.prefix);

    post.userId = undefined; // out of every scoped index of userId
    await post.save();
    expect(await ScopedPost.count({ userId: 'mover-b' })).toBe(0);
    await expectIndexesConsistent(ScopedPost, redis.raw, redis.prefix);

    post.userId = 'mover-c'; // and back into one, with the values it has now
    post.postedAt = undefined;
    await post.save();
    expect(await ScopedPost.findIds({ userId: 'mover-c' }, { orderBy: { postedAt: 'asc' } })).toEqual([post.id]);
    expect(await ScopedPost.findIds({ userId: 'mover-c', postedAt: { lt: t(60) } })).toEqual([]);
    await post.remove();
    await expectIndexesConsistent(ScopedPost, redis.raw, redis.prefix);
  });
});

describe('a scoped-only index needs its scope', () => {
  it('refuses to order or range without an equality on the scope', async () => {
    await expect(ScopedPost.findBy({}, { orderBy: { postedAt: 'desc' } })).rejects.toThrow(/postedAt.*scoped by userId/);
    await expect(ScopedPost.findBy({ pinned: true }, { orderBy: { title: 'asc' } })).rejects.toThrow(/title.*scoped by userId/);
    await expect(ScopedPost.findBy({ postedAt: { gte: t(1) } })).rejects.toThrow(/postedAt.*scoped by userId/);
    await expect(ScopedPost.findBy({ userId: { in: ['u1', 'u2'] } }, { orderBy: { postedAt: 'asc' } })).rejects.toThrow(QueryError);
    await expect(ScopedPost.count({ OR: [{ userId: 'u1' }, { postedAt: { gte: t(1) } }] })).rejects.toThrow(/scoped by userId/);
  });
});

describe('after the queries', () => {
  it('the indexes agree with the objects and no temporary key is left', async () => {
    await expectIndexesConsistent(ScopedPost, redis.raw, redis.prefix);
    expect(await temporaryKeys(redis.raw, redis.prefix)).toEqual([]);
  });
});
