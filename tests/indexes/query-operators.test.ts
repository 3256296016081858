import { Attr, BaseEntity, Index, Model, SortableString, Unique, Where } from '../../src';
import { expectIndexesConsistent, temporaryKeys } from '../support/index-consistency';
import { seeded } from '../../tools/seeded-random';
import { expectedIds, Row } from '../support/query-oracle';
import { useTestRedis } from '../support/test-redis';

/**
 * Every where operator on every indexed type, alone and combined, checked against the documented semantics
 * (tests/support/query-oracle.ts) in every order and on more than one page.
 */

@Model()
class OperatorItem extends BaseEntity {
  @Attr() @Index() n?: number;
  @Attr() @Index() at?: Date;
  @Attr() @Index({ sortable: true }) word?: SortableString;
  @Attr() @Index() color?: string;
  @Attr() @Index() flag?: boolean;
  @Attr() @Unique() code?: string;
}

const redis = useTestRedis();
const rows: Row[] = [];
const day = (d: number) => new Date(Date.UTC(2024, 0, 1) + d * 86_400_000);
const WORDS = ['', 'a', 'apple', 'apricot', 'banana', 'band', 'bandana', 'bank', 'cherry', 'Cherry', 'date', 'éclair', 'zebra'];
const COLORS = ['red', 'green', 'blue'];

beforeAll(async () => {
  const random = seeded(7);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)];
  const maybe = <T>(value: T, absent = 0.12) => (random() < absent ? undefined : value);
  for (let i = 0; i < 90; i++) {
    const input = {
      n: maybe(random() < 0.2 ? Math.round(random() * 100) / 10 - 3 : Math.floor(random() * 16) - 3),
      at: maybe(day(Math.floor(random() * 30) - 10)),
      word: maybe(pick(WORDS)),
      color: maybe(pick(COLORS)),
      flag: maybe(random() < 0.5),
      code: maybe(`C${i}`, 0.3),
    };
    const item = await OperatorItem.create(input);
    rows.push({ id: item.id, ...input });
  }
});

const ORDERS = [undefined, { n: 'asc' }, { n: 'desc' }, { at: 'asc' }, { at: 'desc' }, { word: 'asc' }, { word: 'desc' }] as const;
const PAGES = [{}, { offset: 3, limit: 4 }, { offset: 0, limit: 1 }] as const;

/** findIds and count against the oracle, in every order and on several pages; findBy's objects for one. */
async function expectAnswers(where: Where<OperatorItem>): Promise<void> {
  const plain = where as Record<string, unknown>;
  const checks: Array<Promise<void>> = [];
  checks.push(OperatorItem.count(where).then((count) => expect([where, count]).toEqual([where, expectedIds(rows, plain).length])));
  for (const orderBy of ORDERS) {
    for (const page of PAGES) {
      const options = { orderBy, ...page };
      checks.push(
        OperatorItem.findIds(where, options as never).then((ids) =>
          expect({ where, options, ids }).toEqual({ where, options, ids: expectedIds(rows, plain, options as never) }),
        ),
      );
    }
  }
  const found = await OperatorItem.findBy(where, { orderBy: { n: 'desc' } });
  expect(found.map((item) => item.toJSON())).toEqual(
    expectedIds(rows, plain, { orderBy: { n: 'desc' } }).map((id) => {
      const row = rows.find((r) => r.id === id)!;
      return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== undefined));
    }),
  );
  await Promise.all(checks);
}

describe('equality and in', () => {
  const cases: Array<[string, Where<OperatorItem>]> = [
    ['a number', { n: 4 }],
    ['a negative number', { n: -3 }],
    ['a number nobody has', { n: 1000 }],
    ['a Date', { at: day(3) }],
    ['a sortable string', { word: 'band' }],
    ['the empty sortable string', { word: '' }],
    ['a sortable string differing only in case', { word: 'Cherry' }],
    ['a plain string', { color: 'green' }],
    ['a plain string nobody has', { color: 'purple' }],
    ['true', { flag: true }],
    ['false', { flag: false }],
    ['a unique value', { code: 'C5' }],
    ['a unique value nobody has', { code: 'C999' }],
    ['in with no value', { n: { in: [] } }],
    ['in with no value on a plain string', { color: { in: [] } }],
    ['in with one value', { color: { in: ['blue'] } }],
    ['in with many values', { n: { in: [-3, 0, 1, 2, 7, 12, 99] } }],
    ['in with repeated values', { word: { in: ['apple', 'apple', 'zebra'] } }],
    ['in on Dates', { at: { in: [day(0), day(1), day(-10), day(100)] } }],
    ['in on booleans', { flag: { in: [true, false] } }],
    ['in on unique values', { code: { in: ['C1', 'C2', 'C3', 'nope'] } }],
    ['an empty where', {}],
  ];
  it.each(cases)('%s', async (_, where) => {
    await expectAnswers(where);
  });
});

describe('ranges', () => {
  const cases: Array<[string, Where<OperatorItem>]> = [
    ['gt on numbers', { n: { gt: 4 } }],
    ['gte on numbers', { n: { gte: 4 } }],
    ['lt on numbers', { n: { lt: 0 } }],
    ['lte on numbers', { n: { lte: 0 } }],
    ['gte and lt on the same number', { n: { gte: 2, lt: 6 } }],
    ['gt and lte on the same number', { n: { gt: 2, lte: 6 } }],
    ['gte = lte, an equality', { n: { gte: 5, lte: 5 } }],
    ['gt and lt on the same value, empty', { n: { gt: 5, lt: 5 } }],
    ['a contradictory range, empty', { n: { gt: 9, lt: 1 } }],
    ['fractional bounds', { n: { gt: -0.5, lte: 2.5 } }],
    ['gt and gte on the same value keeps the tighter', { n: { gte: 3, gt: 3 } }],
    ['in and a range on the same number', { n: { in: [1, 2, 3, 4, 5], gte: 3 } }],
    ['gt on Dates', { at: { gt: day(5) } }],
    ['gte and lt on Dates', { at: { gte: day(-3), lt: day(4) } }],
    ['lte on Dates', { at: { lte: day(-5) } }],
    ['gt on sortable strings', { word: { gt: 'band' } }],
    ['gte on sortable strings', { word: { gte: 'band' } }],
    ['lt on sortable strings', { word: { lt: 'banana' } }],
    ['lte on sortable strings', { word: { lte: 'banana' } }],
    ['lt the empty string, empty', { word: { lt: '' } }],
    ['gte the empty string, every present value', { word: { gte: '' } }],
    ['upper case sorts before lower case', { word: { gte: 'C', lt: 'c' } }],
    ['above ASCII', { word: { gt: 'z' } }],
    ['startsWith', { word: { startsWith: 'ban' } }],
    ['startsWith a whole word', { word: { startsWith: 'band' } }],
    ['startsWith the empty string, every present value', { word: { startsWith: '' } }],
    ['startsWith nothing matches', { word: { startsWith: 'q' } }],
    ['startsWith and lt on the same attribute', { word: { startsWith: 'ban', lt: 'bank' } }],
    ['startsWith and gt on the same attribute', { word: { startsWith: 'ban', gt: 'band' } }],
    ['startsWith and in on the same attribute', { word: { startsWith: 'ap', in: ['apple', 'banana'] } }],
  ];
  it.each(cases)('%s', async (_, where) => {
    await expectAnswers(where);
  });
});

describe('AND and OR', () => {
  const cases: Array<[string, Where<OperatorItem>]> = [
    ['two equalities', { color: 'red', flag: true }],
    ['equality and a range', { color: 'blue', n: { gte: 3 } }],
    ['a range on each of three attributes', { n: { gt: 0 }, at: { lt: day(10) }, word: { gte: 'b' } }],
    [
      'every attribute at once',
      { n: { gte: -3 }, at: { gte: day(-10) }, word: { startsWith: '' }, color: { in: COLORS }, flag: { in: [true, false] } },
    ],
    ['a unique value and another condition', { code: 'C7', flag: true }],
    ['an in and a startsWith', { color: { in: ['red', 'green'] }, word: { startsWith: 'ba' } }],
    ['OR of two equalities', { OR: [{ color: 'red' }, { flag: false }] }],
    ['OR of one branch', { OR: [{ n: { lt: 0 } }] }],
    ['OR of three ranges on one attribute', { OR: [{ n: { lt: -1 } }, { n: { gte: 3, lt: 4 } }, { n: { gt: 10 } }] }],
    [
      'OR with an AND in each branch',
      {
        OR: [
          { color: 'red', n: { gt: 5 } },
          { color: 'blue', word: { startsWith: 'a' } },
        ],
      },
    ],
    ['OR inside an AND', { flag: true, OR: [{ color: 'green' }, { n: { lte: 0 } }] }],
    ['OR inside AND inside OR', { OR: [{ color: 'red', OR: [{ n: 1 }, { n: 2 }, { word: 'band' }] }, { at: { lt: day(-8) } }] }],
    ['OR inside OR', { OR: [{ OR: [{ n: 0 }, { n: 1 }] }, { OR: [{ word: 'zebra' }, { code: 'C3' }] }] }],
    ['OR with an empty branch matches everything else ANDed', { color: 'red', OR: [{}, { n: 1 }] }],
    ['OR whose branches match nothing', { OR: [{ n: { in: [] } }, { color: 'purple' }] }],
    ['OR of overlapping branches counts each object once', { OR: [{ n: { gte: 0 } }, { n: { lte: 5 } }] }],
    ['OR on the unique attribute', { OR: [{ code: 'C1' }, { code: 'C2' }, { code: 'nope' }] }],
  ];
  it.each(cases)('%s', async (_, where) => {
    await expectAnswers(where);
  });
});

describe('findOneBy', () => {
  it('is the first match by id, or by the order', async () => {
    const first = await OperatorItem.findOneBy({ color: 'red' });
    expect(first?.id).toBe(expectedIds(rows, { color: 'red' })[0]);
    const top = await OperatorItem.findOneBy({ color: 'red' }, { orderBy: { n: 'desc' } });
    expect(top?.id).toBe(expectedIds(rows, { color: 'red' }, { orderBy: { n: 'desc' } })[0]);
    const second = await OperatorItem.findOneBy({ color: 'red' }, { orderBy: { n: 'desc' }, offset: 1 });
    expect(second?.id).toBe(expectedIds(rows, { color: 'red' }, { orderBy: { n: 'desc' } })[1]);
  });

  it('is null when nothing matches', async () => {
    expect(await OperatorItem.findOneBy({ color: 'purple' })).toBeNull();
    expect(await OperatorItem.findOneBy({ n: { in: [] } })).toBeNull();
  });
});

describe('after the queries', () => {
  it('the indexes still agree with the objects and no temporary key is left', async () => {
    const report = await expectIndexesConsistent(OperatorItem, redis.raw, redis.prefix);
    expect(report.objects).toBe(90);
    expect(await temporaryKeys(redis.raw, redis.prefix)).toEqual([]);
  });
});
