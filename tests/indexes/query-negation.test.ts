import { Attr, BaseEntity, Index, Model, QueryError, SortableString, Unique, Where } from '../../src';
import { expectIndexesConsistent, temporaryKeys } from '../support/index-consistency';
import { seeded } from '../../tools/seeded-random';
import { expectedIds, Row } from '../support/query-oracle';
import { randomWheres } from '../support/random-wheres';
import { useTestRedis } from '../support/test-redis';

/**
 * `not`, `notIn` and `exists` on every kind of index, alone, with the other operators, under AND and OR: a query
 * oracle (random data, random wheres, each answer compared with the same filter run over every object in
 * tests/support/query-oracle.ts), then the `nil` sets kept through updates and removals.
 */

@Model()
class NegatedItem extends BaseEntity {
  @Attr() @Index() n?: number;
  @Attr() @Index() at?: Date;
  @Attr() @Index({ sortable: true }) word?: SortableString;
  @Attr() @Index() color?: string;
  @Attr() @Index() flag?: boolean;
  @Attr() @Unique() code?: string;
  @Attr() @Index({ scope: 'color' }) rank?: number;
  @Attr() note?: string;
}

const redis = useTestRedis();
const rows: Row[] = [];
const items: NegatedItem[] = [];
const day = (d: number) => new Date(Date.UTC(2024, 0, 1) + d * 86_400_000);
const WORDS = ['', 'a', 'apple', 'band', 'bank', 'Cherry', 'zebra'];
const COLORS = ['red', 'green', 'blue'];
const random = seeded(51);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
const maybe = <T>(value: T, absent = 0.25): T | undefined => (random() < absent ? undefined : value);

function randomValues(i: number) {
  return {
    n: maybe(Math.floor(random() * 8) - 2),
    at: maybe(day(Math.floor(random() * 6))),
    word: maybe(pick(WORDS)),
    color: maybe(pick(COLORS)),
    flag: maybe(random() < 0.5),
    code: maybe(`C${i}`, 0.4),
    rank: maybe(Math.floor(random() * 4)),
  };
}

beforeAll(async () => {
  for (let i = 0; i < 70; i++) {
    const input = randomValues(i);
    const item = await NegatedItem.create(input);
    items.push(item);
    rows.push({ id: item.id, ...input });
  }
  // values taken away and given back, objects removed: the `nil` sets follow
  for (let i = 0; i < 70; i += 3) {
    const values = randomValues(i + 100);
    Object.assign(items[i], values);
    await items[i].save();
    rows[i] = { id: items[i].id!, ...values };
  }
  for (const i of [5, 17, 40]) {
    await items[i].remove();
    rows[i] = { id: '' };
  }
  rows.splice(0, rows.length, ...rows.filter((row) => row.id !== ''));
});

const randomWhere = randomWheres(random, {
  values: {
    n: () => Math.floor(random() * 8) - 2,
    at: () => day(Math.floor(random() * 6)),
    word: () => pick(WORDS),
    color: () => pick(COLORS),
    flag: () => random() < 0.5,
    code: () => `C${Math.floor(random() * 120)}`,
  },
  ordered: new Set(['n', 'at', 'word']),
});

const ORDERS = [undefined, { n: 'asc' }, { at: 'desc' }, { word: 'asc' }, { word: 'desc' }] as const;

describe('the query oracle', () => {
  it('answers 300 random wheres of not, notIn, exists, in, ranges, AND and OR as a filter over every object does', async () => {
    for (let q = 0; q < 300; q++) {
      const where = randomWhere();
      const orderBy = pick(ORDERS);
      const page = random() < 0.5 ? {} : { offset: Math.floor(random() * 5), limit: 1 + Math.floor(random() * 6) };
      const options = { orderBy, ...page };
      const [ids, count] = await Promise.all([
        NegatedItem.findIds(where as Where<NegatedItem>, options as never),
        NegatedItem.count(where as Where<NegatedItem>),
      ]);
      expect({ where, options, ids, count }).toEqual({
        where,
        options,
        ids: expectedIds(rows, where, options as never),
        count: expectedIds(rows, where).length,
      });
    }
    expect(await temporaryKeys(redis.raw, redis.prefix)).toEqual([]);
  });
});

describe('not, notIn and exists', () => {
  const cases: Array<[string, Where<NegatedItem>]> = [
    ['not on a set index', { color: { not: 'red' } }],
    ['not on a boolean', { flag: { not: true } }],
    ['not on a number', { n: { not: 0 } }],
    ['not on a Date', { at: { not: day(2) } }],
    ['not on a sortable string', { word: { not: '' } }],
    ['not on a unique index', { code: { not: 'C3' } }],
    ['notIn with many values', { color: { notIn: ['red', 'blue'] } }],
    ['notIn with no value matches every object', { n: { notIn: [] } }],
    ['exists: false on a set index (its nil set)', { color: { exists: false } }],
    ['exists: true on a set index', { color: { exists: true } }],
    ['exists: false on a score index', { n: { exists: false } }],
    ['exists: true on a score index', { at: { exists: true } }],
    ['exists: false on a lex index', { word: { exists: false } }],
    ['exists: true on a lex index', { word: { exists: true } }],
    ['exists: false on a unique index', { code: { exists: false } }],
    ['exists: true on a unique index', { code: { exists: true } }],
    ['not without the absent ones', { color: { not: 'red', exists: true } }],
    ['not with a range', { n: { gte: 0, not: 3 } }],
    ['exists: false and a range, empty', { n: { exists: false, gt: 1 } }],
    ['a negation beside an equality', { flag: true, color: { notIn: ['green'] } }],
    ['absence in OR', { OR: [{ color: { exists: false } }, { color: 'red' }] }],
    ['negations in every branch', { OR: [{ n: { not: 1 } }, { word: { notIn: ['a', 'band'] } }], flag: { exists: true } }],
    ['a scoped index with its scope pinned', { color: 'red', rank: { exists: false } }],
    ['not on a scoped index with its scope pinned', { color: 'blue', rank: { not: 2 } }],
  ];
  it.each(cases)('%s', async (_, where) => {
    const plain = where as Record<string, unknown>;
    expect(await NegatedItem.findIds(where)).toEqual(expectedIds(rows, plain));
    expect(await NegatedItem.findIds(where, { orderBy: { word: 'desc' }, offset: 1, limit: 5 })).toEqual(
      expectedIds(rows, plain, { orderBy: { word: 'desc' }, offset: 1, limit: 5 }),
    );
    expect(await NegatedItem.count(where)).toBe(expectedIds(rows, plain).length);
  });

  it('refuses what no index answers, and values of the wrong kind, with a QueryError', async () => {
    const refused: Array<[unknown, RegExp]> = [
      [{ note: { not: 'x' } }, /NegatedItem\.note: equality needs @Index\(\)/],
      [{ note: { exists: false } }, /NegatedItem\.note: exists needs @Index\(\)/],
      [{ rank: { exists: true } }, /NegatedItem\.rank: its index is scoped by color/],
      [{ color: { exists: 'yes' } }, /NegatedItem\.color: exists takes true or false, got "yes"/],
      [{ color: { not: null } }, /NegatedItem\.color: not takes a value, not null; \{ exists: true \}/],
      [{ color: { notIn: 'red' } }, /NegatedItem\.color: notIn takes an array/],
      [{ color: { notIn: [, 'red'] } }, /NegatedItem\.color: notIn has a hole at index 0/],
      [{ n: { not: 'one' } }, /NegatedItem\.n: cannot compare with "one"/],
      [{ color: null }, /NegatedItem\.color: null is not a queryable value; \{ exists: false \}/],
    ];
    for (const [where, message] of refused) {
      await expect(NegatedItem.findIds(where as never)).rejects.toThrow(QueryError);
      await expect(NegatedItem.findIds(where as never)).rejects.toThrow(message);
    }
  });
});

describe('the nil set of a set index', () => {
  it('holds exactly the objects without a value, through saves, bulk writes and removals', async () => {
    const key = `${redis.prefix}:{NegatedItem}:nil:color`;
    const absent = () => rows.filter((row) => row.color === undefined).map((row) => row.id);
    expect((await redis.raw.sMembers(key)).sort()).toEqual(absent().sort());
    const { saved } = await NegatedItem.saveMany([new NegatedItem(), Object.assign(new NegatedItem(), { color: 'red' })]);
    const [a, b] = saved;
    expect(await redis.raw.sIsMember(key, a.id)).toBe(1);
    a.color = 'blue';
    b.color = undefined;
    await a.save();
    await b.save();
    expect([await redis.raw.sIsMember(key, a.id), await redis.raw.sIsMember(key, b.id)]).toEqual([0, 1]);
    expect(await NegatedItem.findIds({ color: { exists: false }, n: { exists: false } })).toContain(b.id);
    await NegatedItem.removeMany([a.id, b.id]);
    expect(await redis.raw.sIsMember(key, b.id)).toBe(0);
    await expectIndexesConsistent(NegatedItem, redis.raw, redis.prefix);
    expect((await NegatedItem.check()).ok).toBe(true);
  });
});
