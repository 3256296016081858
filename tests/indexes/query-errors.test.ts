import { Attr, BaseEntity, Codec, Index, Model, QueryError, SortableString, Unique, Where } from '../../src';
import { expectIndexesConsistent, temporaryKeys } from '../support/index-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * Queries no index can answer, and malformed ones, throw QueryError naming the attribute and the index it
 * needs, before anything runs in Redis. No query, answered or refused, leaves a temporary key behind.
 */

@Model()
class RefusedItem extends BaseEntity {
  @Attr() @Index() n?: number;
  @Attr() @Index() tag?: string;
  @Attr() @Index() flag?: boolean;
  @Attr() @Index({ sortable: true }) title?: SortableString;
  @Attr() body?: string;
  @Attr() views?: number;
  @Attr() owner?: string;
  @Attr() @Index({ scope: 'owner' }) at?: Date;
  @Attr() @Unique() code?: string;
  @Attr({ type: 'json' }) meta?: Record<string, number>;
}

const redis = useTestRedis();

beforeAll(async () => {
  for (let i = 0; i < 12; i++) {
    await RefusedItem.create({
      n: i,
      tag: `t${i % 2}`,
      flag: i % 3 === 0,
      title: `x${i}`,
      body: 'b',
      views: i,
      owner: `o${i % 2}`,
      at: new Date(i),
      code: `c${i}`,
    });
  }
});

/** { OR: [{ OR: [ ... { n: 1 } ] }] }, `depth` levels deep. */
function nestedOr(depth: number): Record<string, unknown> {
  let where: Record<string, unknown> = { n: 1 };
  for (let i = 0; i < depth; i++) where = { OR: [where] };
  return where;
}

/** A where whose OR holds the where itself. */
function cyclicOr(): Record<string, unknown> {
  const where: Record<string, unknown> = { n: 1 };
  where.OR = [where];
  return where;
}

/** Each refused query: the same QueryError from findBy, findIds, findOneBy, count and iterate, where they apply. */
async function expectRefused(where: unknown, options: Record<string, unknown>, message: RegExp): Promise<void> {
  const attempts: Array<Promise<unknown>> = [
    RefusedItem.findBy(where as never, options as never),
    RefusedItem.findIds(where as never, options as never),
  ];
  if (!('limit' in options)) attempts.push(RefusedItem.findOneBy(where as never, options as never)); // it sets its own limit
  if (Object.keys(options).length === 0) {
    attempts.push(RefusedItem.count(where as never), RefusedItem.iterate(where as never).next());
  }
  for (const attempt of attempts) {
    const error = await attempt.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(QueryError);
    expect((error as Error).message).toMatch(message);
  }
}

describe('refused queries', () => {
  const cases: Array<[string, unknown, Record<string, unknown>, RegExp]> = [
    [
      'equality on an attribute without an index',
      { body: 'b' },
      {},
      /RefusedItem\.body: equality needs @Index\(\) \(or @Unique\(\)\) on body/,
    ],
    ['in on an attribute without an index', { views: { in: [1, 2] } }, {}, /RefusedItem\.views: equality needs @Index\(\)/],
    ['a range on a number without an index', { views: { gt: 1 } }, {}, /RefusedItem\.views: ranges and ordering need @Index\(\) on views/],
    [
      'a range on a plain string (cast past the types)',
      { tag: { gt: 'a' } },
      {},
      /RefusedItem\.tag: .*@Index\(\{ sortable: true \}\) on tag/,
    ],
    ['startsWith on a plain string', { tag: { startsWith: 't' } }, {}, /@Index\(\{ sortable: true \}\) on tag/],
    ['startsWith on a number', { n: { startsWith: '1' } }, {}, /RefusedItem\.n: startsWith applies to sortable strings/],
    ['a range on a boolean', { flag: { gt: false } }, {}, /RefusedItem\.flag: gt applies to numbers, Dates and sortable strings/],
    ['startsWith on a boolean', { flag: { startsWith: 't' } }, {}, /RefusedItem\.flag: startsWith applies to sortable strings$/],
    ['an unindexed attribute inside an OR', { OR: [{ n: 1 }, { body: 'b' }] }, {}, /body: equality needs @Index\(\)/],
    ['an unindexed attribute inside a nested OR', { tag: 't0', OR: [{ n: 1 }, { OR: [{ views: 3 }] }] }, {}, /views: equality needs/],
    [
      'a range on a scoped-only index without its scope',
      { at: { gte: new Date(0) } },
      {},
      /RefusedItem\.at: its index is scoped by owner; add an equality on owner/,
    ],
    ['an unknown attribute', { nope: 1 }, {}, /RefusedItem has no attribute nope/],
    ['the id as an attribute', { id: '1' }, {}, /RefusedItem has no attribute id/],
    ['an unknown operator', { n: { between: [1, 2] } }, {}, /RefusedItem\.n: unknown operator between/],
    ['an operator with a wrong-cased name', { n: { GT: 1 } }, {}, /unknown operator GT/],
    ['null as a value', { tag: null }, {}, /RefusedItem\.tag: null is not a queryable value/],
    ['null as an operand', { n: { gt: null } }, {}, /RefusedItem\.n: cannot compare with null/],
    ['null inside in', { tag: { in: ['t0', null] } }, {}, /RefusedItem\.tag: cannot compare with null/],
    ['in that is not an array', { tag: { in: 't0' } }, {}, /RefusedItem\.tag: in takes an array/],
    ['a value of the wrong type', { n: 'one' }, {}, /RefusedItem\.n: cannot compare with "one"/],
    ['a Date for a number', { n: new Date() }, {}, /RefusedItem\.n: cannot compare with a Date/],
    ['a string for a Date', { at: '2024-01-01', owner: 'o1' }, {}, /RefusedItem\.at: cannot compare with/],
    ['NaN', { n: NaN }, {}, /RefusedItem\.n: cannot compare with NaN/],
    ['Infinity', { n: { lt: Infinity } }, {}, /RefusedItem\.n: cannot compare with Infinity/],
    ['an invalid Date', { at: { gt: new Date('nope') }, owner: 'o1' }, {}, /RefusedItem\.at: cannot compare with a Date/],
    ['OR: []', { OR: [] }, {}, /RefusedItem: OR takes a non-empty array of wheres/],
    ['OR that is not an array', { OR: { n: 1 } }, {}, /OR takes a non-empty array/],
    ['a where that is not an object', [{ n: 1 }], {}, /RefusedItem: a where must be an object/],
    ['a string as the where', 'n = 1', {}, /a where must be an object, got "n = 1"/],
    ['null as the where (only undefined means no condition)', null, {}, /RefusedItem: a where must be an object, got null/],
    ['a Date as the where', new Date(0), {}, /a where must be an object, got a Date/],
    ['null inside OR', { OR: [null] }, {}, /RefusedItem: OR takes a non-empty array of wheres \(objects\)/],
    ['undefined inside OR', { OR: [{ n: 1 }, undefined] }, {}, /OR takes a non-empty array of wheres/],
    ['a hole inside OR', { OR: [{ n: 1 }, , { n: 2 }] }, {}, /OR takes a non-empty array of wheres/],
    ['ORs nested too deep', nestedOr(40), {}, /RefusedItem: ORs nested more than 32 deep/],
    ['an OR holding its own where', cyclicOr(), {}, /RefusedItem: ORs nested more than 32 deep/],
    ['a bigint for a number', { n: 10n }, {}, /RefusedItem\.n: cannot compare with 10n/],
    ['an array as a value', { n: [25, 50] }, {}, /RefusedItem\.n: cannot compare with an array/],
    ['an object with no prototype as an operand', { n: { gt: Object.create(null) } }, {}, /RefusedItem\.n: cannot compare with an object/],
    [
      'orderBy on an attribute without an index',
      {},
      { orderBy: { views: 'asc' } },
      /RefusedItem\.views: orderBy needs @Index\(\) on views/,
    ],
    ['orderBy on a plain string', {}, { orderBy: { tag: 'asc' } }, /RefusedItem\.tag: orderBy needs @Index\(\{ sortable: true \}\) on tag/],
    [
      'orderBy on a boolean',
      {},
      { orderBy: { flag: 'desc' } },
      /RefusedItem\.flag: orderBy applies to numbers, Dates and sortable strings, not to a boolean attribute/,
    ],
    [
      'equality on a scoped-only index without its scope',
      { at: new Date(3) },
      {},
      /RefusedItem\.at: its index is scoped by owner; add an equality on owner/,
    ],
    [
      'in on a scoped-only index without its scope',
      { at: { in: [new Date(3), new Date(4)] } },
      {},
      /RefusedItem\.at: its index is scoped by owner/,
    ],
    ['an object value on a JSON attribute', { meta: { a: 1 } }, {}, /RefusedItem\.meta: JSON attributes cannot be indexed or queried/],
    [
      'orderBy on a scoped-only index without its scope',
      { n: { gt: 1 } },
      { orderBy: { at: 'desc' } },
      /RefusedItem\.at: orderBy uses an index scoped by owner/,
    ],
    [
      'orderBy on a scoped-only index with two scope values',
      { owner: { in: ['o0', 'o1'] } },
      { orderBy: { at: 'desc' } },
      /scoped by owner/,
    ],
    // Object.keys leaves symbols out: each would be dropped, and the query match every object
    ['a symbol key alone', { [Symbol('x')]: 1 }, {}, /^RefusedItem has no attribute Symbol\(x\)$/],
    ['a symbol key beside an attribute', { tag: 't0', [Symbol('x')]: 1 }, {}, /^RefusedItem has no attribute Symbol\(x\)$/],
    ['a symbol key inside an OR', { OR: [{ n: 1 }, { [Symbol('x')]: 1 }] }, {}, /^RefusedItem has no attribute Symbol\(x\)$/],
    ['an operator named by a symbol', { n: { [Symbol('gt')]: 1 } }, {}, /^RefusedItem\.n: unknown operator Symbol\(gt\)$/],
    ['orderBy on an unknown attribute', {}, { orderBy: { nope: 'asc' } }, /RefusedItem has no attribute nope/],
    ['orderBy on two attributes', {}, { orderBy: { n: 'asc', title: 'asc' } }, /orderBy takes one attribute/],
    ['orderBy with a wrong direction', {}, { orderBy: { n: 'up' } }, /RefusedItem: orderBy n must be 'asc' or 'desc'/],
    ['orderBy that is not an object', {}, { orderBy: 'n' }, /orderBy takes \{ attribute: 'asc' \| 'desc' \}/],
    ['a negative offset', {}, { offset: -1 }, /RefusedItem: offset must be a whole number >= 0/],
    ['a fractional offset', {}, { offset: 1.5 }, /offset must be a whole number >= 0/],
    ['a string offset', {}, { offset: '2' }, /offset must be a whole number >= 0/],
    ['a NaN offset', {}, { offset: NaN }, /offset must be a whole number >= 0/],
    ['a null offset', {}, { offset: null }, /RefusedItem: offset must be a whole number >= 0/],
    ['a null limit', {}, { limit: null }, /RefusedItem: limit must be a whole number >= 0/],
    ['a negative limit', {}, { limit: -1 }, /RefusedItem: limit must be a whole number >= 0/],
    ['a fractional limit', {}, { limit: 2.5 }, /limit must be a whole number >= 0/],
    ['an infinite limit', {}, { limit: Infinity }, /limit must be a whole number >= 0/],
  ];
  it.each(cases)('%s', async (_, where, options, message) => {
    await expectRefused(where, options, message);
  });

  it.each([0, -1, 1.5, NaN, Infinity])('iterate with batchSize %p', async (batchSize) => {
    await expect(RefusedItem.iterate({ tag: 't0' }, { batchSize }).next()).rejects.toThrow(
      /RefusedItem: batchSize must be a whole number >= 1/,
    );
  });

  it('a symbol key that is not enumerable is no key of the where, as for any other property', async () => {
    const where = Object.defineProperty({ tag: 't1' }, Symbol('hidden'), { value: 1, enumerable: false });
    expect(await RefusedItem.findIds(where)).toEqual(['2', '4', '6', '8', '10', '12']);
  });

  it('an orderBy whose direction is undefined orders by id', async () => {
    expect(await RefusedItem.findIds({ tag: 't1' }, { orderBy: { n: undefined } })).toEqual(['2', '4', '6', '8', '10', '12']);
  });
});

describe('temporary keys', () => {
  it('none is left after queries of every shape, answered or refused', async () => {
    const queries: Array<Promise<unknown>> = [
      RefusedItem.findBy({ tag: 't0', n: { gte: 2 } }, { orderBy: { title: 'desc' }, limit: 2 }),
      RefusedItem.findIds({ OR: [{ title: { startsWith: 'x1' } }, { code: { in: ['c3', 'c4'] } }] }, { orderBy: { n: 'desc' } }),
      RefusedItem.count({ owner: 'o1', at: { lt: new Date(8) }, flag: false }),
      RefusedItem.findBy({ owner: 'o0', tag: 't0' }, { orderBy: { at: 'asc' }, offset: 1 }),
      RefusedItem.findIds({ n: { in: [] }, tag: 't1' }),
      RefusedItem.findIds({ tag: 't1', OR: [{ title: { gt: 'x5' } }, { n: { lt: 3 } }] }, { orderBy: { title: 'asc' } }),
      RefusedItem.findIds({ code: 'c99', n: { gt: 1 } }),
    ];
    for await (const item of RefusedItem.iterate({ title: { gte: 'x' }, flag: true }, { batchSize: 2 })) expect(item.flag).toBe(true);
    for (const refused of [{ body: 'b', n: { gt: 1 } }, { OR: [{ n: { gt: 3 } }, { views: 1 }] }, { tag: { gt: 'a' }, n: { lt: 4 } }]) {
      queries.push(RefusedItem.findBy(refused as never, { orderBy: { n: 'asc' } }).catch((error: unknown) => error));
    }
    const results = await Promise.all(queries);
    expect(results.slice(-3).every((result) => result instanceof QueryError)).toBe(true);
    expect(await temporaryKeys(redis.raw, redis.prefix)).toEqual([]);
    await expectIndexesConsistent(RefusedItem, redis.raw, redis.prefix);
  });
});

/** A custom codec whose values are plain objects: equality goes through `in`, an object alone reads as operators. */
interface Point {
  x: number;
  y: number;
}
const pointCodec: Codec<Point> = {
  encode: (point) => `${point.x},${point.y}`,
  decode: (raw) => {
    const [x, y] = raw.split(',').map(Number);
    return { x, y };
  },
};

@Model()
class PlacedItem extends BaseEntity {
  @Attr({ codec: pointCodec }) @Index() home?: Point;
}

describe('a custom codec whose values are plain objects', () => {
  it('is compared with in; the object alone is a QueryError saying so', async () => {
    const here = await PlacedItem.create({ home: { x: 1, y: 2 } });
    await PlacedItem.create({ home: { x: 3, y: 4 } });
    expect(await PlacedItem.findIds({ home: { in: [{ x: 1, y: 2 }] } } as unknown as Where<PlacedItem>)).toEqual([here.id]);
    const error = await PlacedItem.findIds({ home: { x: 1, y: 2 } } as unknown as Where<PlacedItem>).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(QueryError);
    expect((error as Error).message).toBe(
      'PlacedItem.home: unknown operator x (a value that is a plain object is compared with { in: [value] })',
    );
  });
});
