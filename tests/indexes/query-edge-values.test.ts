import { Attr, BaseEntity, Index, Model, QueryError, SchemaError, SortableString, Unique } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * Queries at the edges of what the indexes hold: a scoped index answering an equality on its scope while some
 * objects have no value of their own (scored +inf), -0 beside 0 in an ordered page, sparse `in` arrays, and
 * the reads that must leave an index's encoding alone.
 */

@Model({ name: 'EdgeScoped' })
class Scoped extends BaseEntity {
  @Attr() owner!: string;
  @Attr() @Index({ scope: 'owner' }) at?: number;
}

@Model({ name: 'EdgeHoles' })
class Holes extends BaseEntity {
  @Attr() @Index() color?: string;
  @Attr() @Index() n?: number;
  @Attr() @Index({ sortable: true }) word?: SortableString;
  @Attr() body?: string;
}

@Model({ name: 'EdgeZero' })
class Zero extends BaseEntity {
  @Attr() @Index() n?: number;
}

@Model({ name: 'EdgeSmall' })
class Small extends BaseEntity {
  @Attr() @Index() n?: number;
}

const redis = useTestRedis();
const encoding = async (key: string) => String(await redis.raw.sendCommand(['OBJECT', 'ENCODING', `${redis.prefix}:${key}`]));

describe('an equality on a scope, answered by the scoped index, with objects that have no value of their own', () => {
  const all = Array.from({ length: 12 }, (_, i) => String(i + 1));
  beforeAll(async () => {
    // every object has owner u1, and every third no `at` (scored +inf in its scoped index); the scoped index
    // and `all` then have one size, which made Redis walk `all` first and score those objects 0
    for (let i = 1; i <= 12; i++) await Scoped.create({ owner: 'u1', at: i % 3 === 0 ? undefined : i * 10 });
  });

  it('come in id order, paged, loaded and counted', async () => {
    expect(await Scoped.findIds({ owner: 'u1' })).toEqual(all);
    expect(await Scoped.findIds({ owner: 'u1' }, { offset: 2, limit: 3 })).toEqual(['3', '4', '5']);
    expect((await Scoped.findBy({ owner: 'u1' })).map((item) => item.id)).toEqual(all);
    expect(await Scoped.findIds({ owner: { in: ['u1', 'u2'] } })).toEqual(all);
    expect(await Scoped.count({ owner: 'u1' })).toBe(12);
  });

  it('are all visited by iterate, one batch after the other', async () => {
    const seen: string[] = [];
    for await (const item of Scoped.iterate({ owner: 'u1' }, { batchSize: 1 })) seen.push(item.id);
    expect(seen).toEqual(all);
  });
});

describe('-0 and 0 in an ordered page', () => {
  beforeAll(async () => {
    // ids 998 to 1001 hold 0, -0, 0, -0, where byte order ('1000' < '1001' < '998' < '999') is not id order,
    // added to an index that is a skiplist already (more than 128 entries): there Redis keeps -0 apart from 0
    // and writes it '-0'
    await Zero.saveMany(Array.from({ length: 997 }, () => ({ n: 1000 })));
    expect(await encoding('{EdgeZero}:idx:n')).toBe('skiplist');
    for (const n of [0, -0, 0, -0]) await Zero.create({ n });
  });

  it('are one tie group, in id order, at every offset and in both directions', async () => {
    expect(await Zero.findIds({ n: { lte: 0 } }, { orderBy: { n: 'asc' } })).toEqual(['998', '999', '1000', '1001']);
    expect(await Zero.findIds({ n: { lte: 0 } }, { orderBy: { n: 'desc' } })).toEqual(['1001', '1000', '999', '998']);
    expect(await Zero.findIds({ n: 0 }, { orderBy: { n: 'asc' }, offset: 1, limit: 2 })).toEqual(['999', '1000']);
    expect((await Zero.findBy({}, { orderBy: { n: 'asc' }, limit: 5 })).map((item) => item.id)).toEqual([
      '998',
      '999',
      '1000',
      '1001',
      '1',
    ]);
    expect(await Zero.findIds({}, { orderBy: { n: 'asc' }, offset: 3, limit: 2 })).toEqual(['1001', '1']);
  });
});

describe('reading a window of a small index', () => {
  it('leaves it in its compact encoding (SORT would turn it into a skiplist for good)', async () => {
    for (let n = 1; n <= 10; n++) await Small.create({ n });
    expect((await Small.findBy({ n: { gte: 3, lte: 6 } })).map((item) => item.n)).toEqual([3, 4, 5, 6]);
    expect(await encoding('{EdgeSmall}:idx:n')).toBe('listpack');
  });
});

describe('bad `in` lists and absent conditions', () => {
  beforeAll(async () => {
    await Holes.create({ color: 'undefined', n: 1, word: 'undefined' });
    await Holes.create({ color: 'red', n: 2, word: 'red' });
  });

  it('refuse a hole in a sparse `in` array with QueryError, on every kind of index', async () => {
    const sparse = [, 'red'] as string[];
    for (const where of [{ color: { in: sparse } }, { n: { in: [, 2] as number[] } }, { word: { in: sparse } }]) {
      await expect(Holes.findIds(where)).rejects.toThrow(QueryError);
    }
    await expect(Holes.findIds({ color: { in: sparse } })).rejects.toThrow(
      'EdgeHoles.color: in has a hole at index 0 (a sparse array); absent values are not indexed',
    );
  });

  it('answer `in: []` with nothing where an index could answer it, and with QueryError where none could', async () => {
    expect(await Holes.findIds({ color: { in: [] } })).toEqual([]);
    expect(await Holes.count({ n: { in: [] } })).toBe(0);
    await expect(Holes.findIds({ body: { in: [] } })).rejects.toThrow('EdgeHoles.body: equality needs @Index() (or @Unique()) on body');
  });

  it('refuse OR: undefined, as any undefined condition, rather than match every object', async () => {
    const branches: Array<{ color: string }> | undefined = undefined;
    await expect(Holes.findIds({ OR: branches })).rejects.toThrow('EdgeHoles.OR is undefined in a where');
  });
});

describe('a case-insensitive unique attribute', () => {
  it('cannot be a scope: equality on it ignores case, a scope is matched exactly', () => {
    expect(() => {
      @Model({ name: 'EdgeCiScope' })
      class CiScope extends BaseEntity {
        @Attr() @Unique({ caseInsensitive: true }) email!: string;
        @Attr() @Index({ scope: 'email' }) at?: number;
      }
      return CiScope;
    }).toThrow(
      new SchemaError('CiScope.at: scope email has a case-insensitive @Unique, and a scope is matched exactly; scope by another attribute'),
    );
  });
});
