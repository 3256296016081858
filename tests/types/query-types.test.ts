import {
  Attr,
  BaseEntity,
  Codec,
  FindIdsOptions,
  FindOneOptions,
  FindOptions,
  Index,
  Model,
  OrderableName,
  QueryError,
  SortableString,
  Unique,
  Where,
} from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * What the compiler accepts and refuses in queries. ts-jest type-checks this file: every `// @ts-expect-error`
 * line must fail to compile (an unused one fails the run), and every other line must compile. Each test also
 * runs, and asserts what happens at runtime (QueryError where the types were bypassed).
 */

const cents: Codec<bigint> = { encode: (value) => value.toString(), decode: (raw) => BigInt(raw) };

@Model()
class TypedQueryPost extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr() @Index({ sortable: true }) title?: SortableString;
  @Attr() @Index() score?: number;
  @Attr() @Index() published?: Date;
  @Attr() @Index() draft?: boolean;
  @Attr() @Unique() slug?: string;
  @Attr({ codec: cents }) @Index() total?: bigint;

  describe(): string {
    return `${this.title} (${this.score})`;
  }
}

type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | undefined {
  return undefined;
}

useTestRedis();

beforeAll(async () => {
  await TypedQueryPost.create({ topic: 'db', title: 'b', score: 2, published: new Date(2000), draft: false, slug: 'two' });
  await TypedQueryPost.create({ topic: 'db', title: 'a', score: 1, published: new Date(1000), draft: true, slug: 'one' });
});

describe('accepted queries', () => {
  it('ranges and startsWith on sortable strings, numbers and Dates', async () => {
    expect(await TypedQueryPost.findIds({ title: { gte: 'a', lt: 'c', startsWith: '' } })).toEqual(['1', '2']);
    expect(await TypedQueryPost.findIds({ score: { gt: 1, lte: 5 } })).toEqual(['1']);
    expect(await TypedQueryPost.findIds({ published: { gte: new Date(0), lt: new Date(1500) } })).toEqual(['2']);
    expect(await TypedQueryPost.count({ published: new Date(1000), draft: true, topic: { in: ['db'] } })).toBe(1);
  });

  it('orderBy on numbers, Dates and sortable strings; results typed as the model', async () => {
    const byTitle = await TypedQueryPost.findBy({ topic: 'db' }, { orderBy: { title: 'asc' }, offset: 0, limit: 10 });
    const titles: Array<string | undefined> = byTitle.map((post) => post.title);
    const id: string = byTitle[0].id;
    expect([id, titles]).toEqual(['2', ['a', 'b']]);
    expect(await TypedQueryPost.findIds({}, { orderBy: { published: 'desc' } })).toEqual(['1', '2']);
    const first = await TypedQueryPost.findOneBy({ OR: [{ score: 1 }, { slug: 'two' }] }, { orderBy: { score: 'desc' } });
    assertType<Equal<typeof first, (TypedQueryPost & { readonly id: string }) | null>>();
    expect(first?.describe()).toBe('b (2)');
    assertType<Equal<OrderableName<TypedQueryPost>, 'title' | 'score' | 'published'>>();
  });

  it('wheres and options can be built apart with Where, FindOptions and FindIdsOptions', async () => {
    const where: Where<TypedQueryPost> = { OR: [{ draft: true }, { title: { startsWith: 'b' } }], score: { in: [1, 2] } };
    const options: FindIdsOptions<TypedQueryPost> = { orderBy: { score: 'asc' }, limit: 1 };
    const withInclude: FindOptions<TypedQueryPost> = { ...options, include: [] };
    expect(await TypedQueryPost.findIds(where, options)).toEqual(['2']);
    expect((await TypedQueryPost.findBy(where, options)).map((post) => post.id)).toEqual(['2']);
    expect((await TypedQueryPost.findBy(where, withInclude)).map((post) => post.id)).toEqual(['2']);
    const seen: string[] = [];
    for await (const post of TypedQueryPost.iterate(where, { batchSize: 1 })) seen.push(post.id);
    expect(seen).toEqual(['1', '2']);
  });
});

describe('refused at compile time (and QueryError at runtime)', () => {
  it('a where on an unknown attribute, on the id or on a method', async () => {
    // @ts-expect-error `titel` is not an attribute
    await expect(TypedQueryPost.findBy({ titel: 'a' })).rejects.toThrow(QueryError);
    // @ts-expect-error the id is not an attribute
    await expect(TypedQueryPost.count({ id: '1' })).rejects.toThrow(/no attribute id/);
    // @ts-expect-error methods are not attributes
    await expect(TypedQueryPost.findIds({ describe: 'x' })).rejects.toThrow(/no attribute describe/);
  });

  it('ranges and startsWith on a plain string', async () => {
    // @ts-expect-error topic is a plain string: no ranges
    await expect(TypedQueryPost.findBy({ topic: { gt: 'a' } })).rejects.toThrow(/sortable: true/);
    // @ts-expect-error topic is a plain string: no startsWith
    await expect(TypedQueryPost.findBy({ topic: { startsWith: 'd' } })).rejects.toThrow(/sortable: true/);
    // @ts-expect-error slug is a plain (unique) string: no ranges
    await expect(TypedQueryPost.count({ slug: { lte: 'z' } })).rejects.toThrow(QueryError);
  });

  it('operators the type does not take, in a condition built apart (no excess-property check there)', async () => {
    const onPlainString = { in: ['db'], gt: 'a' };
    const onBoolean = { in: [true], lte: false };
    const onNumber = { gte: 1, startsWith: '1' };
    // @ts-expect-error topic is a plain string: no ranges, even from a variable
    await expect(TypedQueryPost.findIds({ topic: onPlainString })).rejects.toThrow(/sortable: true/);
    // @ts-expect-error booleans have no order, even from a variable
    await expect(TypedQueryPost.findIds({ draft: onBoolean })).rejects.toThrow(QueryError);
    // @ts-expect-error startsWith applies to sortable strings, even from a variable
    await expect(TypedQueryPost.findIds({ score: onNumber })).rejects.toThrow(/startsWith applies to sortable strings/);
    const onCodec = { in: [1n], gt: 1n };
    const prefixOnCodec = { in: [1n], startsWith: '1' };
    expect(await TypedQueryPost.findIds({ total: { in: [1n] } })).toEqual([]);
    // @ts-expect-error a custom codec's values have no order, even from a variable
    await expect(TypedQueryPost.findIds({ total: onCodec })).rejects.toThrow(QueryError);
    // @ts-expect-error nor startsWith
    await expect(TypedQueryPost.findIds({ total: prefixOnCodec })).rejects.toThrow(QueryError);
  });

  it('an empty OR, written or held in an array that may be empty', async () => {
    // @ts-expect-error OR takes at least one alternative
    await expect(TypedQueryPost.findIds({ OR: [] })).rejects.toThrow(/OR takes a non-empty array/);
    const alternatives: Array<Where<TypedQueryPost>> = [];
    // @ts-expect-error an array typed as possibly empty, likewise
    await expect(TypedQueryPost.count({ OR: alternatives })).rejects.toThrow(/OR takes a non-empty array/);
    const one: [Where<TypedQueryPost>, ...Array<Where<TypedQueryPost>>] = [{ score: 1 }];
    expect(await TypedQueryPost.findIds({ OR: one })).toEqual(['2']);
    expect(await TypedQueryPost.findIds({ OR: [{ score: 1 }] })).toEqual(['2']);
  });

  it('include on findIds, which returns ids, and limit on findOneBy, which answers one', async () => {
    // @ts-expect-error findIds has nothing to include
    await expect(TypedQueryPost.findIds({}, { include: [] })).rejects.toThrow(/include/);
    // @ts-expect-error findOneBy takes no limit
    await expect(TypedQueryPost.findOneBy({}, { limit: 5 })).rejects.toThrow(/limit/);
    const withInclude: FindOptions<TypedQueryPost> = { include: [] };
    const withLimit: FindOptions<TypedQueryPost> = { limit: 5 };
    // @ts-expect-error nor from a FindOptions variable (no excess-property check there)
    await expect(TypedQueryPost.findIds({}, withInclude)).rejects.toThrow(/include/);
    // @ts-expect-error likewise
    await expect(TypedQueryPost.findOneBy({}, withLimit)).rejects.toThrow(/limit/);
    const first: FindOneOptions<TypedQueryPost> = { orderBy: { score: 'desc' }, offset: 1 };
    expect((await TypedQueryPost.findOneBy({}, first))?.id).toBe('2');
  });

  it('startsWith on a number or a Date, ranges on a boolean', async () => {
    // @ts-expect-error startsWith applies to sortable strings
    await expect(TypedQueryPost.findBy({ score: { startsWith: '1' } })).rejects.toThrow(/startsWith applies to sortable strings/);
    // @ts-expect-error startsWith applies to sortable strings
    await expect(TypedQueryPost.findBy({ published: { startsWith: '2' } })).rejects.toThrow(/startsWith/);
    // @ts-expect-error booleans have no order
    await expect(TypedQueryPost.findBy({ draft: { gt: false } })).rejects.toThrow(/applies to numbers, Dates and sortable strings/);
  });

  it('orderBy on a plain string, a boolean or an unknown attribute', async () => {
    // @ts-expect-error topic is not sortable
    await expect(TypedQueryPost.findBy({}, { orderBy: { topic: 'asc' } })).rejects.toThrow(/orderBy needs @Index\(\{ sortable: true \}\)/);
    // @ts-expect-error booleans have no order
    await expect(TypedQueryPost.findBy({}, { orderBy: { draft: 'desc' } })).rejects.toThrow(QueryError);
    // @ts-expect-error not an attribute
    await expect(TypedQueryPost.findIds({}, { orderBy: { rank: 'asc' } })).rejects.toThrow(/no attribute rank/);
    // @ts-expect-error the direction is 'asc' or 'desc'
    await expect(TypedQueryPost.findIds({}, { orderBy: { score: 'up' } })).rejects.toThrow(/'asc' or 'desc'/);
  });

  it('values of the wrong type', async () => {
    // @ts-expect-error score is a number
    await expect(TypedQueryPost.findBy({ score: '1' })).rejects.toThrow(/cannot compare/);
    // @ts-expect-error range bounds of a number are numbers
    await expect(TypedQueryPost.findBy({ score: { gte: '1' } })).rejects.toThrow(/cannot compare/);
    // @ts-expect-error published is a Date, not a timestamp
    await expect(TypedQueryPost.findBy({ published: { lt: 1500 } })).rejects.toThrow(/cannot compare/);
    // @ts-expect-error draft is a boolean
    await expect(TypedQueryPost.findBy({ draft: 'true' })).rejects.toThrow(/cannot compare/);
    // @ts-expect-error in takes values of the attribute's type
    await expect(TypedQueryPost.findBy({ topic: { in: [1, 2] } })).rejects.toThrow(/cannot compare/);
    // @ts-expect-error in takes an array
    await expect(TypedQueryPost.findBy({ topic: { in: 'db' } })).rejects.toThrow(/in takes an array/);
    // @ts-expect-error null is not a value to query (absent values are not indexed)
    await expect(TypedQueryPost.findBy({ topic: null })).rejects.toThrow(/null is not a queryable value/);
    // @ts-expect-error OR takes wheres
    await expect(TypedQueryPost.findBy({ OR: [{ score: 'x' }] })).rejects.toThrow(/cannot compare/);
    // @ts-expect-error offset is a number
    await expect(TypedQueryPost.findBy({}, { offset: '1' })).rejects.toThrow(/offset/);
  });
});

describe('not, notIn, exists, findPage and countBy', () => {
  it('take values of the attribute type', async () => {
    expect(await TypedQueryPost.findIds({ score: { not: 1 }, draft: { notIn: [true] }, slug: { exists: true } })).toEqual(['1']);
    expect(await TypedQueryPost.count({ published: { not: new Date(1000) }, title: { notIn: ['x'], exists: true } })).toBe(1);
    const page = await TypedQueryPost.findPage({ topic: { exists: true } }, { orderBy: { score: 'desc' }, limit: 1 });
    assertType<Equal<typeof page.next, string | null>>();
    const score: number | undefined = page.items[0].score;
    expect([score, page.next === null]).toEqual([2, false]);
    const counts: Record<string, number> = await TypedQueryPost.countBy('draft', { topic: 'db' });
    expect(counts).toEqual({ false: 1, true: 1 });
  });

  it('refuse values of another type, and countBy an unknown attribute or a method', async () => {
    // @ts-expect-error not takes a value of the attribute's type
    await expect(TypedQueryPost.findIds({ score: { not: '1' } })).rejects.toThrow(/cannot compare/);
    // @ts-expect-error notIn takes an array of them
    await expect(TypedQueryPost.findIds({ topic: { notIn: 'db' } })).rejects.toThrow(/notIn takes an array/);
    // @ts-expect-error exists takes a boolean
    await expect(TypedQueryPost.findIds({ topic: { exists: 1 } })).rejects.toThrow(/exists takes true or false/);
    // @ts-expect-error findPage needs a limit
    await expect(TypedQueryPost.findPage({}, { orderBy: { score: 'asc' } })).rejects.toThrow(/limit must be a whole number/);
    // @ts-expect-error a page's cursor is a string
    await expect(TypedQueryPost.findPage({}, { limit: 1, after: 5 })).rejects.toThrow(/bad cursor/);
    // @ts-expect-error topic is not sortable
    await expect(TypedQueryPost.findPage({}, { orderBy: { topic: 'asc' }, limit: 1 })).rejects.toThrow(QueryError);
    // @ts-expect-error not an attribute
    await expect(TypedQueryPost.countBy('titel')).rejects.toThrow(/no attribute titel/);
    // @ts-expect-error methods are not attributes
    await expect(TypedQueryPost.countBy('describe')).rejects.toThrow(/no attribute describe/);
  });
});
