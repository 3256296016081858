import { Attr, BaseEntity, Index, Model, SortableString } from '../../src';
import { expectIndexesConsistent, temporaryKeys } from '../support/index-consistency';
import { expectedIds, Row } from '../support/query-oracle';
import { useTestRedis } from '../support/test-redis';

/**
 * A where that one index window answers (a range on a number, Date or sortable string, alone or with an
 * equality on the scope of a composite index), without orderBy: the ids come in id order, numerically across
 * 9/10 and 99/100, with every offset, limit and iterate batch, the same as the oracle; count agrees; objects
 * that expired are left out; no temporary key is made.
 */

@Model()
class WindowItem extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr() @Index({ scope: 'topic' }) score?: number;
  @Attr() @Index() at?: Date;
  @Attr() @Index({ sortable: true }) name?: SortableString;
}

@Model({ ttl: 60 })
class ExpiringWindowItem extends BaseEntity {
  @Attr() @Index() score?: number;
}

const redis = useTestRedis();
const COUNT = 130;
const rows: Row[] = [];

beforeAll(async () => {
  for (let i = 1; i <= COUNT; i++) {
    // scores repeat (ties), so the window's own order (score, then id bytes) is not id order
    const input = {
      topic: i % 3 === 0 ? 't0' : 't1',
      score: i % 11 === 0 ? undefined : (i * 7) % 13,
      at: new Date(((i * 5) % 17) * 1000),
      name: i % 6 === 0 ? undefined : ['b', 'a', 'ab', 'c'][i % 4],
    };
    const item = await WindowItem.create(input);
    rows.push({ id: item.id, ...input });
  }
});

const WHERES: Array<Record<string, unknown>> = [
  { topic: 't0', score: { gte: 3, lte: 9 } },
  { topic: 't1', score: { gt: 0 } },
  { topic: 't1', score: 4 },
  { topic: 't0', score: { in: [2, 5, 12] } },
  { at: { lt: new Date(9000) } },
  { at: { gte: new Date(0) } },
  { name: { gte: 'ab' } },
  { name: { startsWith: 'a' } },
  { name: 'c' },
  { topic: 't1', score: { gt: 100 } },
];

describe('a where answered by one index window, in id order', () => {
  it.each(WHERES.map((where) => [JSON.stringify(where), where]))('%s: ids, pages and count', async (_, where) => {
    const expected = expectedIds(rows, where);
    const all = await WindowItem.findIds(where as never);
    expect(all).toEqual(expected);
    expect((await WindowItem.findBy(where as never)).map((item) => item.id)).toEqual(expected);
    for (const offset of new Set([0, 1, 9, 10, Math.max(0, expected.length - 1), expected.length, expected.length + 5])) {
      for (const limit of [0, 1, 3, 100]) {
        expect(await WindowItem.findIds(where as never, { offset, limit })).toEqual(expected.slice(offset, offset + limit));
      }
      expect(await WindowItem.findIds(where as never, { offset })).toEqual(expected.slice(offset));
    }
    expect(await WindowItem.count(where as never)).toBe(expected.length);
  });

  it.each([1, 4, 9, 200])('iterate visits every match once in id order, %i per batch', async (batchSize) => {
    for (const where of WHERES) {
      const seen: string[] = [];
      for await (const item of WindowItem.iterate(where as never, { batchSize })) seen.push(item.id);
      expect(seen).toEqual(expectedIds(rows, where));
    }
  });

  it('findBy loads the same objects, in the same order', async () => {
    const where = { topic: 't1', score: { gte: 2, lte: 10 } };
    const found = await WindowItem.findBy(where, { offset: 2, limit: 30 });
    expect(found.map((item) => item.id)).toEqual(expectedIds(rows, where).slice(2, 32));
    for (const item of found) {
      const row = rows.find((candidate) => candidate.id === item.id)!;
      expect([item.topic, item.score, item.at?.getTime(), item.name]).toEqual([row.topic, row.score, (row.at as Date).getTime(), row.name]);
    }
  });

  it('leaves out objects whose time has come, swept or not', async () => {
    const kept: string[] = [];
    for (let i = 1; i <= 12; i++) {
      const item = await ExpiringWindowItem.create({ score: i % 4 });
      if (i % 3 === 0) await item.expire(0.001);
      else if (i % 4 !== 0) kept.push(item.id);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await ExpiringWindowItem.findIds({ score: { gte: 1 } })).toEqual(kept);
    expect(await ExpiringWindowItem.count({ score: { gte: 1 } })).toBe(kept.length);
  });

  it('keeps the indexes consistent and leaves no temporary key', async () => {
    await expectIndexesConsistent(WindowItem, redis.raw, redis.prefix);
    expect(await temporaryKeys(redis.raw, redis.prefix)).toEqual([]);
  });
});
