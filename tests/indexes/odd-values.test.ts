import { Attr, BaseEntity, Index, Model, SortableString, Unique } from '../../src';
import { expectIndexesConsistent, temporaryKeys } from '../support/index-consistency';
import { expectedIds, Row } from '../support/query-oracle';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * Values that could break key names or lex order: separators, hash-tag braces, glob characters, unicode,
 * emoji, NUL bytes, very long strings; numbers at the edges of doubles; Dates before 1970. Sortable strings
 * are ordered by the plain bytes of their UTF-8 form, ties by id.
 */

@Model()
class OddValueItem extends BaseEntity {
  @Attr() @Index({ sortable: true }) text?: SortableString;
  @Attr() @Index() tag?: string;
  @Attr() @Unique() handle?: string;
  @Attr() @Index({ scope: 'tag' }) rank?: number;
  @Attr() @Index({ sortable: true, scope: 'tag' }) label?: SortableString;
}

@Model()
class OddNumberItem extends BaseEntity {
  @Attr() @Index() n?: number;
  @Attr() @Index() at?: Date;
}

const redis = useTestRedis();
const LONG = 'long:'.padEnd(20_000, 'x{}*');
const STRINGS = [
  '',
  ' ',
  ':',
  '::',
  '{',
  '}',
  '{OddValueItem}',
  '*',
  '?',
  '[a-z]',
  '\\',
  'a:b',
  'a',
  'A',
  'a\0',
  '\0',
  '\0\0',
  'a\0b',
  'a\0\0',
  'a\u0001',
  'a\u00ff',
  '\u007f',
  'é',
  'e\u0301',
  'ß',
  '中文',
  '日本',
  '😀',
  '😀😀',
  '\uffff',
  '\n',
  'tab\there',
  LONG,
  'a',
  '😀',
  '', // repeated values: ties ordered by id
];
const NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  -0.5,
  0.1 + 0.2,
  1e-7,
  -1e-7,
  123456789.123,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e21,
  -1e21,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  1e308,
  7,
  7,
  -3,
];
const DATES = [
  new Date(0),
  new Date(-1),
  new Date(1),
  new Date('1900-01-01T00:00:00Z'),
  new Date('1969-07-20T20:17:00Z'),
  new Date(-8.64e15),
  new Date(8.64e15),
  new Date('2038-01-19T03:14:08Z'),
  new Date('1600-02-29T12:00:00.001Z'),
];
const rows: Row[] = [];
const numberRows: Row[] = [];

beforeAll(async () => {
  for (let i = 0; i < STRINGS.length; i++) {
    const value = STRINGS[i];
    const input = {
      text: value,
      tag: value,
      handle: STRINGS.indexOf(value) === i ? value : undefined,
      rank: i % 3,
      label: STRINGS[(i + 5) % STRINGS.length],
    };
    const item = await OddValueItem.create(input);
    rows.push({ id: item.id, ...input });
  }
  for (let i = 0; i < Math.max(NUMBERS.length, DATES.length); i++) {
    const input = { n: NUMBERS[i], at: DATES[i] };
    const item = await OddNumberItem.create(input);
    numberRows.push({ id: item.id, ...input });
  }
});

describe('odd strings', () => {
  it('round-trip and are found by equality in every kind of index', async () => {
    for (const value of new Set(STRINGS)) {
      const holders = expectedIds(rows, { text: value });
      expect([value, await OddValueItem.findIds({ text: value })]).toEqual([value, holders]);
      expect([value, await OddValueItem.findIds({ tag: value })]).toEqual([value, holders]);
      expect([value, await OddValueItem.findIds({ handle: value })]).toEqual([value, [holders[0]]]);
      expect((await OddValueItem.findOneBy({ tag: value }))?.text).toBe(value);
    }
  });

  it('are ordered by their UTF-8 bytes, ties by id, desc the exact reverse', async () => {
    const asc = await OddValueItem.findIds({}, { orderBy: { text: 'asc' } });
    const bytes = rows
      .map((row) => ({ id: row.id, bytes: Buffer.from(row.text as string, 'utf8') }))
      .sort((a, b) => Buffer.compare(a.bytes, b.bytes) || Number(a.id) - Number(b.id))
      .map((row) => row.id);
    expect(asc).toEqual(bytes);
    expect(await OddValueItem.findIds({}, { orderBy: { text: 'desc' } })).toEqual([...bytes].reverse());
    // NUL sorts before every other byte, and a prefix before its extensions
    const order = asc.map((id) => rows.find((row) => row.id === id)!.text);
    expect(order.indexOf('a')).toBeLessThan(order.indexOf('a\0'));
    expect(order.indexOf('a\0')).toBeLessThan(order.indexOf('a\0\0'));
    expect(order.indexOf('a\0\0')).toBeLessThan(order.indexOf('a\0b'));
    expect(order.indexOf('a\0b')).toBeLessThan(order.indexOf('a\u0001'));
    expect(order.indexOf('\u007f')).toBeLessThan(order.indexOf('é'));
    expect(order.indexOf('\uffff')).toBeLessThan(order.indexOf('😀')); // EF BF BF < F0 9F 98 80
  });

  it('answer ranges and startsWith by bytes', async () => {
    const bounds = ['', '\0', 'a', 'a\0', 'a\0\0', 'a\0b', 'é', '😀', ':', '{', LONG, '\uffff'];
    for (const bound of bounds) {
      for (const where of [
        { text: { gt: bound } },
        { text: { gte: bound } },
        { text: { lt: bound } },
        { text: { lte: bound } },
        { text: { startsWith: bound } },
        { text: { startsWith: bound, lt: 'b' } },
      ]) {
        expect([where, await OddValueItem.findIds(where, { orderBy: { text: 'asc' } })]).toEqual([
          where,
          expectedIds(rows, where, { orderBy: { text: 'asc' } }),
        ]);
        expect([where, await OddValueItem.count(where)]).toEqual([where, expectedIds(rows, where).length]);
      }
    }
  });

  it('work as scope values', async () => {
    for (const value of new Set(STRINGS)) {
      const where = { tag: value, rank: { gte: 0 } };
      expect(await OddValueItem.findIds(where, { orderBy: { rank: 'desc' } })).toEqual(
        expectedIds(rows, where, { orderBy: { rank: 'desc' } }),
      );
      const byLabel = { tag: value, label: { gte: '' } };
      expect(await OddValueItem.findIds(byLabel, { orderBy: { label: 'asc' } })).toEqual(
        expectedIds(rows, byLabel, { orderBy: { label: 'asc' } }),
      );
    }
  });

  it('keep the indexes consistent through updates and removes, and leave no key behind', async () => {
    await expectIndexesConsistent(OddValueItem, redis.raw, redis.prefix);
    const items = await OddValueItem.findBy();
    for (const [i, item] of items.entries()) {
      item.text = STRINGS[(i + 1) % STRINGS.length];
      item.tag = STRINGS[(i + 3) % STRINGS.length];
      item.handle = i % 2 ? undefined : `${item.handle ?? ''}\0${i}`;
      await item.save();
    }
    await expectIndexesConsistent(OddValueItem, redis.raw, redis.prefix);
    for (const item of items) await item.remove();
    const base = `${redis.prefix}:{OddValueItem}`;
    expect((await keysUnder(redis.raw, redis.prefix)).filter((key) => key.startsWith(base))).toEqual([`${base}:seq`]);
  });
});

describe('odd numbers and Dates', () => {
  it('are ordered numerically, negative and pre-1970 values included, absent ones last', async () => {
    for (const orderBy of [{ n: 'asc' }, { n: 'desc' }, { at: 'asc' }, { at: 'desc' }] as const) {
      expect(await OddNumberItem.findIds({}, { orderBy })).toEqual(expectedIds(numberRows, undefined, { orderBy }));
    }
  });

  it('-0 equals 0 in equality and ranges', async () => {
    const zeros = numberRows.filter((row) => row.n === 0).map((row) => row.id);
    expect(zeros).toHaveLength(2);
    expect(await OddNumberItem.findIds({ n: 0 })).toEqual(zeros);
    expect(await OddNumberItem.findIds({ n: -0 })).toEqual(zeros);
    expect(await OddNumberItem.findIds({ n: { gte: -0, lte: 0 } })).toEqual(zeros);
    expect(await OddNumberItem.count({ n: { gt: -0 } })).toBe(numberRows.filter((row) => (row.n as number) > 0).length);
    expect((await OddNumberItem.findOrFail(zeros[1])).n).toBe(-0);
  });

  it('answer ranges at the edges of doubles', async () => {
    const bounds = [
      0,
      -0,
      Number.MIN_VALUE,
      -Number.MIN_VALUE,
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      2 ** 53,
      2 ** 53 + 1,
      1e21,
      0.30000000000000004,
      7,
    ];
    for (const bound of bounds) {
      for (const where of [
        { n: { gt: bound } },
        { n: { gte: bound } },
        { n: { lt: bound } },
        { n: { lte: bound } },
        { n: bound },
        { n: { in: [bound, 1] } },
      ]) {
        expect([where, await OddNumberItem.findIds(where, { orderBy: { n: 'asc' } })]).toEqual([
          where,
          expectedIds(numberRows, where, { orderBy: { n: 'asc' } }),
        ]);
      }
    }
  });

  it('answer Date ranges across 1970', async () => {
    const bounds = [new Date(-1), new Date(0), new Date('1900-01-01T00:00:00Z'), new Date(-8.64e15), new Date(8.64e15)];
    for (const bound of bounds) {
      for (const where of [{ at: { gt: bound } }, { at: { gte: bound } }, { at: { lt: bound } }, { at: { lte: bound } }, { at: bound }]) {
        expect([where, await OddNumberItem.findIds(where, { orderBy: { at: 'desc' } })]).toEqual([
          where,
          expectedIds(numberRows, where, { orderBy: { at: 'desc' } }),
        ]);
      }
    }
  });

  it('keep the indexes consistent', async () => {
    await expectIndexesConsistent(OddNumberItem, redis.raw, redis.prefix);
    expect(await temporaryKeys(redis.raw, redis.prefix)).toEqual([]);
  });
});
