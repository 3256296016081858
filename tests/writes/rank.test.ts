import { ArgumentError, Attr, BaseEntity, Index, InvalidIdError, Model, QueryError, SortableString } from '../../src';
import { scripts } from '../../src/store/scripts';
import { useScriptCalls } from '../support/script-calls';
import { useTestRedis } from '../support/test-redis';

/**
 * Model.rank(id, { by, order, per }): the 0-based position of an object in an ordered index, checked against the
 * order find({ orderBy }) reads: ties by id (sequence ids numerically, others by bytes), 'desc' the exact reverse,
 * absent values last, scoped and capped indexes; null for an object that is not in the index.
 */

@Model()
class RkPlayer extends BaseEntity {
  @Attr() @Index() score?: number;
  @Attr() @Index({ sortable: true }) name?: SortableString;
  @Attr() @Index() @Index({ scope: 'league' }) at?: Date;
  @Attr() league?: string;
  @Attr() note?: string;
}

@Model({ idStrategy: 'uuid' })
class RkUuid extends BaseEntity {
  @Attr() @Index() score?: number;
}

@Model({ cap: { by: 'points', keep: 5 } })
class RkCapped extends BaseEntity {
  @Attr() @Index() points?: number;
}

@Model({ ttl: 3600 })
class RkExpiring extends BaseEntity {
  @Attr() @Index() score?: number;
}

const redis = useTestRedis();
const calls = useScriptCalls(redis);

type Ranked = typeof RkPlayer | typeof RkUuid | typeof RkCapped | typeof RkExpiring;

/** Every object's rank equals its position in findIds({ orderBy }) (and within `where` for a scope). */
async function expectRanksMatchOrder(model: Ranked, by: string, order: 'asc' | 'desc', where: object = {}, per?: string) {
  const ids = await (model as typeof RkPlayer).findIds(where, { orderBy: { [by]: order } as never });
  expect(ids.length).toBeGreaterThan(0);
  const ranks = await Promise.all(ids.map((id) => (model as typeof RkPlayer).rank(id, { by, order, per } as never)));
  expect(ranks).toEqual(ids.map((_, i) => i));
}

beforeAll(async () => {
  // 25 players: scores with many ties (ids 1..25 cross the 9/10 and 19/20 length boundaries), one absent
  for (let i = 1; i <= 25; i++) {
    await RkPlayer.create({
      score: i === 13 ? undefined : i % 4,
      name: (i % 5 === 0 ? undefined : `n${i % 3}`) as SortableString | undefined,
      at: new Date(Date.UTC(2026, 0, 1 + (i % 6))),
      league: i % 7 === 0 ? undefined : `L${i % 2}`,
    });
  }
  for (let i = 0; i < 12; i++) await RkUuid.create({ score: i % 3 });
});

describe('Model.rank', () => {
  it('is the position find({ orderBy }) gives, ties by id, for scores ascending and descending', async () => {
    await expectRanksMatchOrder(RkPlayer, 'score', 'asc');
    await expectRanksMatchOrder(RkPlayer, 'score', 'desc');
    expect(await RkPlayer.rank('13', { by: 'score', order: 'asc' })).toBe(24); // absent: last, as orderBy has it
    expect(await RkPlayer.rank('13', { by: 'score' })).toBe(24); // 'asc' by default
  });

  it('orders ties by bytes when ids are not sequence numbers', async () => {
    await expectRanksMatchOrder(RkUuid, 'score', 'asc');
    await expectRanksMatchOrder(RkUuid, 'score', 'desc');
  });

  it('ranks in a sortable string index and in a Date index', async () => {
    await expectRanksMatchOrder(RkPlayer, 'name', 'asc');
    await expectRanksMatchOrder(RkPlayer, 'name', 'desc');
    await expectRanksMatchOrder(RkPlayer, 'at', 'desc');
  });

  it('ranks within the object’s own scope value with per, and is null without a scope value', async () => {
    await expectRanksMatchOrder(RkPlayer, 'at', 'asc', { league: 'L0' }, 'league');
    await expectRanksMatchOrder(RkPlayer, 'at', 'desc', { league: 'L1' }, 'league');
    expect(await RkPlayer.rank('7', { by: 'at', per: 'league' })).toBeNull(); // league absent
  });

  it('is null for an object that does not exist, and takes one script call', async () => {
    expect(await RkPlayer.rank('999', { by: 'score' })).toBeNull();
    calls.reset();
    await RkPlayer.rank('3', { by: 'score', order: 'desc' });
    expect(calls.sent(scripts.rank())).toBe(1);
    expect(calls.most).toBe(1);
  });

  it('ranks in a capped model’s index, whose trimmed objects are gone', async () => {
    for (let i = 1; i <= 8; i++) await RkCapped.create({ points: (i * 3) % 7 });
    expect(await RkCapped.count()).toBe(5);
    await expectRanksMatchOrder(RkCapped, 'points', 'desc');
    await expectRanksMatchOrder(RkCapped, 'points', 'asc');
  });

  it('leaves out objects whose time has come', async () => {
    const objects = await Promise.all([1, 2, 3, 4].map((score) => RkExpiring.create({ score })));
    await redis.raw.zAdd(`${redis.prefix}:{RkExpiring}:exp`, { score: 1, value: objects[0].id });
    await redis.raw.del(`${redis.prefix}:{RkExpiring}:obj:${objects[0].id}`); // its hash expired, not swept yet
    expect(await RkExpiring.rank(objects[0].id, { by: 'score' })).toBeNull();
    expect(await RkExpiring.rank(objects[1].id, { by: 'score' })).toBe(0);
    await expectRanksMatchOrder(RkExpiring, 'score', 'desc');
  });

  it('refuses an attribute without an ordered index, a bad order, option or id with typed errors', async () => {
    await expect(RkPlayer.rank('1', { by: 'league' as 'score' })).rejects.toThrow(QueryError);
    await expect(RkPlayer.rank('1', { by: 'note' as 'score' })).rejects.toThrow(
      new QueryError('RkPlayer.rank: note has no unscoped ordered index (@Index({ sortable: true }))'),
    );
    await expect(RkPlayer.rank('1', { by: 'score', per: 'league' })).rejects.toThrow(
      new QueryError('RkPlayer.rank: score has no ordered index scoped by "league"'),
    );
    await expect(RkPlayer.rank('1', { by: 'nope' as 'score' })).rejects.toThrow(QueryError);
    await expect(RkPlayer.rank('1', { by: 'score', order: 'up' as 'asc' })).rejects.toThrow(ArgumentError);
    await expect(RkPlayer.rank('1', { by: 'score', limit: 1 } as never)).rejects.toThrow(ArgumentError);
    await expect(RkPlayer.rank('a:b', { by: 'score' })).rejects.toThrow(InvalidIdError);
    await expect(RkPlayer.rank('1', undefined as never)).rejects.toThrow(ArgumentError);
  });
});
