import { Attr, BaseEntity, Index, Model, QueryError, SortableString, Where } from '../../src';
import { seeded } from '../../tools/seeded-random';
import { expectedIds, Row } from '../support/query-oracle';
import { temporaryKeys } from '../support/index-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * findPage (keyset pages) against the query oracle in every order, while other writes land between pages, and
 * with forged cursors; countBy against counts made in JS.
 */

@Model()
class PagedItem extends BaseEntity {
  @Attr() @Index() n?: number;
  @Attr() @Index() at?: Date;
  @Attr() @Index({ sortable: true }) word?: SortableString;
  @Attr() @Index() color?: string;
  @Attr() @Index() flag?: boolean;
  @Attr() note?: string;
}

@Model()
class OtherPagedItem extends BaseEntity {
  @Attr() @Index() n?: number;
}

const redis = useTestRedis();
const rows: Row[] = [];
const random = seeded(5);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
const maybe = <T>(value: T): T | undefined => (random() < 0.2 ? undefined : value);
const day = (d: number) => new Date(Date.UTC(2024, 0, 1) + d * 86_400_000);

function randomInput() {
  // few distinct values: long runs of ties, which pages cut through
  return {
    n: maybe(Math.floor(random() * 5)),
    at: maybe(day(Math.floor(random() * 4))),
    word: maybe(pick(['', 'a', 'ab', 'b'])),
    color: maybe(pick(['red', 'green', 'blue'])),
    flag: maybe(random() < 0.5),
  };
}

beforeAll(async () => {
  for (let i = 0; i < 60; i++) {
    const input = randomInput();
    const item = await PagedItem.create(input);
    rows.push({ id: item.id, ...input });
  }
});

type Order = { n?: 'asc' | 'desc'; at?: 'asc' | 'desc'; word?: 'asc' | 'desc' } | undefined;

/** Every page of a findPage, followed to the end: the ids in order, and how many pages it took. */
async function allPages(where: Where<PagedItem> | undefined, orderBy: Order, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let after: string | undefined;
  let pages = 0;
  for (;;) {
    const page = await PagedItem.findPage(where, { orderBy, limit, after });
    pages++;
    expect(page.items.length).toBeLessThanOrEqual(limit);
    ids.push(...page.items.map((item) => item.id));
    if (page.next === null) return { ids, pages };
    expect(page.items).toHaveLength(limit);
    after = page.next;
  }
}

const ORDERS: Order[] = [undefined, { n: 'asc' }, { n: 'desc' }, { at: 'asc' }, { at: 'desc' }, { word: 'asc' }, { word: 'desc' }];
const WHERES: Array<Where<PagedItem> | undefined> = [
  undefined,
  { color: 'red' },
  { n: { gte: 1, lt: 4 } },
  { word: { startsWith: 'a' } },
  { at: { gt: day(1) } },
  { color: { not: 'green' }, flag: { exists: true } },
  { OR: [{ n: { exists: false } }, { word: 'b' }] },
];

describe('findPage', () => {
  it('pages through every match once, in order, in every order and for every kind of where', async () => {
    for (const where of WHERES) {
      for (const orderBy of ORDERS) {
        for (const limit of [1, 4, 7]) {
          const expected = expectedIds(rows, where as Record<string, unknown>, { orderBy });
          const { ids, pages } = await allPages(where, orderBy, limit);
          expect({ where, orderBy, limit, ids }).toEqual({ where, orderBy, limit, ids: expected });
          expect(pages).toBe(Math.max(1, Math.ceil(expected.length / limit)));
        }
      }
    }
    expect(await temporaryKeys(redis.raw, redis.prefix)).toEqual([]);
  });

  it('neither skips nor repeats an object that stays matched while others are created, removed and changed', async () => {
    for (const orderBy of [{ n: 'asc' }, { word: 'desc' }, undefined] as Order[]) {
      const where: Where<PagedItem> = { color: { notIn: ['blue'] } };
      const seen: string[] = [];
      const touched = new Set<string>();
      let after: string | undefined;
      for (;;) {
        const page = await PagedItem.findPage(where, { orderBy, limit: 5, after });
        seen.push(...page.items.map((item) => item.id));
        if (page.next === null) break;
        after = page.next;
        // between pages: a new object, one removed, one whose other attribute changes, one leaving the matches
        const created = await PagedItem.create(randomInput());
        rows.push({ id: created.id, ...pickFields(created) });
        touched.add(created.id);
        const victim = pick(rows.filter((row) => !touched.has(row.id)));
        touched.add(victim.id);
        await PagedItem.removeMany([victim.id]);
        rows.splice(rows.indexOf(victim), 1);
        const changed = pick(rows.filter((row) => !touched.has(row.id)));
        await PagedItem.findOrFail(changed.id).then((item) => Object.assign(item, { note: 'seen' }).save());
        const leaving = pick(rows.filter((row) => !touched.has(row.id)));
        touched.add(leaving.id);
        await PagedItem.findOrFail(leaving.id).then((item) => Object.assign(item, { color: 'blue' }).save());
        Object.assign(leaving, { color: 'blue' });
      }
      // the objects matched from the first page to the last, each seen once, in the order
      const stayed = expectedIds(rows, where as Record<string, unknown>, { orderBy }).filter((id) => !touched.has(id));
      expect(stayed.length).toBeGreaterThan(10);
      expect(seen.filter((id) => !touched.has(id))).toEqual(stayed);
      expect(new Set(seen).size).toBe(seen.length);
    }
  });

  it('refuses a bad, forged or foreign cursor and a bad limit with a QueryError', async () => {
    const first = await PagedItem.findPage({}, { orderBy: { n: 'asc' }, limit: 2 });
    const other = await OtherPagedItem.create({ n: 1 });
    await OtherPagedItem.create({ n: 2 });
    const foreign = (await OtherPagedItem.findPage(undefined, { orderBy: { n: 'asc' }, limit: 1 })).next!;
    const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const bad: Array<[unknown, RegExp]> = [
      ['not a cursor', /PagedItem\.findPage: bad cursor \(not one findPage made\)/],
      [null, /bad cursor \(a cursor is a string, got null\)/],
      [42, /bad cursor \(a cursor is a string, got number\)/],
      [foreign, /bad cursor \(made for model OtherPagedItem\)/],
      [forge([1, 'PagedItem', 'n:desc', '1', '2']), /made for orderBy n:desc, not n:asc/],
      [forge([1, 'PagedItem', 'n:asc', 'x:y', '2']), /its id is no id of the model/],
      [forge([1, 'PagedItem', 'n:asc', '01', '2']), /its id is no id of the model/],
      [forge([1, 'PagedItem', 'n:asc', '3', 'NaN']), /its value is no value of the order/],
      [forge([1, 'PagedItem', 'n:asc', '3', '(5']), /its value is no value of the order/],
      [forge([2, 'PagedItem', 'n:asc', '3', '5']), /not one findPage made/],
    ];
    for (const [after, message] of bad) {
      await expect(PagedItem.findPage({}, { orderBy: { n: 'asc' }, limit: 2, after: after as string })).rejects.toThrow(QueryError);
      await expect(PagedItem.findPage({}, { orderBy: { n: 'asc' }, limit: 2, after: after as string })).rejects.toThrow(message);
    }
    await expect(PagedItem.findPage({}, { orderBy: { word: 'asc' }, limit: 2, after: first.next! })).rejects.toThrow(
      /made for orderBy n:asc/,
    );
    for (const limit of [0, -1, 1.5, undefined]) {
      await expect(PagedItem.findPage({}, { limit } as never)).rejects.toThrow(/PagedItem\.findPage: limit must be a whole number >= 1/);
    }
    expect(other.id).toBeDefined();
  });
});

function pickFields(item: PagedItem): Record<string, unknown> {
  return { n: item.n, at: item.at, word: item.word, color: item.color, flag: item.flag };
}

describe('countBy', () => {
  function expectedCounts(attribute: string, where?: Record<string, unknown>): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const id of expectedIds(rows, where)) {
      const value = rows.find((row) => row.id === id)![attribute];
      if (value === undefined) continue;
      const key = value instanceof Date ? value.toISOString() : String(value);
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  }

  it('counts each value of a set, score and lex index, with and without a where', async () => {
    const wheres: Array<Where<PagedItem> | undefined> = [undefined, { flag: true }, { n: { exists: false } }, { color: { not: 'red' } }];
    for (const where of wheres) {
      for (const attribute of ['color', 'flag', 'n', 'at', 'word'] as const) {
        const counts = await PagedItem.countBy(attribute, where);
        expect({ attribute, where, counts }).toEqual({ attribute, where, counts: expectedCounts(attribute, where as never) });
      }
    }
    expect(await temporaryKeys(redis.raw, redis.prefix)).toEqual([]);
  });

  it('refuses an attribute without an index, or none at all, with a QueryError', async () => {
    await expect(PagedItem.countBy('note')).rejects.toThrow(/PagedItem\.note: countBy needs @Index\(\) \(or @Unique\(\)\) on note/);
    await expect(PagedItem.countBy('nope' as never)).rejects.toThrow(/PagedItem has no attribute nope/);
    await expect(PagedItem.countBy('color', { note: 'x' })).rejects.toThrow(QueryError);
  });
});
