import { Attr, BaseEntity, Index, Model, SortableString } from '../../src';
import { expectIndexesConsistent, temporaryKeys } from '../support/index-consistency';
import { expectedIds, Row } from '../support/query-oracle';
import { useTestRedis } from '../support/test-redis';

/**
 * Order and pages: ties ordered by id (numerically for sequence ids, across 9/10 and 99/100), 'desc' the exact
 * reverse of 'asc', absent values last in 'asc', and every offset and limit, including those landing inside a
 * tie group, past the end or crossing it. Both ways a page is read are covered: straight from the order's
 * index (no where, or a range on the ordered attribute) and through set algebra (a where on other attributes).
 */

@Model()
class PagedItem extends BaseEntity {
  @Attr() @Index() score?: number;
  @Attr() @Index({ sortable: true }) name?: SortableString;
  @Attr() @Index() at?: Date;
  @Attr() @Index() parity?: string;
}

@Model()
class TiedItem extends BaseEntity {
  @Attr() @Index() score?: number;
  @Attr() @Index({ sortable: true }) name?: SortableString;
  @Attr() @Index() at?: Date;
  @Attr() @Index() group?: string;
}

/** Distinct values (groups of one id) beside tie groups of 2 to 25 ids, across ids of one to three digits. */
@Model()
class MixedItem extends BaseEntity {
  @Attr() @Index() score?: number;
}

@Model({ idStrategy: 'uuid' })
class PagedUuidItem extends BaseEntity {
  @Attr() @Index() score?: number;
  @Attr() @Index({ sortable: true }) name?: SortableString;
  @Attr() @Index() parity?: string;
}

const redis = useTestRedis();
const COUNT = 121;
const rows: Row[] = [];
const uuidRows: Row[] = [];
const TIED = 105;
const MIXED = 110;
const mixedRows: Row[] = [];

beforeAll(async () => {
  for (let i = 1; i <= COUNT; i++) {
    const input = {
      score: i % 4 === 0 ? undefined : i % 3, // 0, 1, 2: three big tie groups, and absent values
      name: i % 5 === 0 ? undefined : ['x', 'y', 'xy'][i % 3],
      at: i % 7 === 0 ? undefined : new Date((i % 2) * 1000 - 500),
      parity: i % 2 ? 'odd' : 'even',
    };
    const item = await PagedItem.create(input);
    rows.push({ id: item.id, ...input });
  }
  for (let i = 1; i <= TIED; i++) {
    await TiedItem.create({ score: 7, name: 'same', at: new Date(0), group: i % 2 ? 'odd' : 'even' });
  }
  for (let i = 1; i <= MIXED; i++) {
    // distinct values, one group of 10 across 9/10 (ids 5..14), groups of 2 (21..30), distinct again (31..60),
    // and two groups of 25 across 99/100 (61..110, by parity)
    const score = i <= 4 ? i : i <= 14 ? 50 : i <= 20 ? i : i <= 30 ? 100 + Math.ceil(i / 2) : i <= 60 ? 300 + i : 200 + (i % 2);
    const item = await MixedItem.create({ score });
    mixedRows.push({ id: item.id, score });
  }
  for (let i = 0; i < 40; i++) {
    const input = {
      score: i % 5 === 0 ? undefined : i % 3,
      name: i % 4 === 0 ? undefined : ['k', 'kk'][i % 2],
      parity: i % 2 ? 'odd' : 'even',
    };
    const item = await PagedUuidItem.create(input);
    uuidRows.push({ id: item.id, ...input });
  }
});

const ids = (items: Array<{ id: string }>) => items.map((item) => item.id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

describe('ties are ordered by id, numerically for sequence ids', () => {
  it.each(['score', 'name', 'at'] as const)('on %s, asc and desc, across 9/10 and 99/100', async (attribute) => {
    expect(await TiedItem.findIds({}, { orderBy: { [attribute]: 'asc' } })).toEqual(range(1, TIED));
    expect(await TiedItem.findIds({}, { orderBy: { [attribute]: 'desc' } })).toEqual(range(1, TIED).reverse());
    expect(await TiedItem.findIds({}, { orderBy: { [attribute]: 'asc' }, offset: 8, limit: 4 })).toEqual(['9', '10', '11', '12']);
    expect(await TiedItem.findIds({}, { orderBy: { [attribute]: 'asc' }, offset: 97, limit: 4 })).toEqual(['98', '99', '100', '101']);
    expect(await TiedItem.findIds({}, { orderBy: { [attribute]: 'desc' }, offset: 4, limit: 3 })).toEqual(['101', '100', '99']);
    expect(await TiedItem.findIds({}, { orderBy: { [attribute]: 'desc' }, offset: 95, limit: 5 })).toEqual(['10', '9', '8', '7', '6']);
    expect(await TiedItem.findIds({}, { orderBy: { [attribute]: 'desc' }, offset: 100 })).toEqual(['5', '4', '3', '2', '1']);
  });

  it.each(['score', 'name', 'at'] as const)('on %s, also when the page comes from set algebra', async (attribute) => {
    const odd = range(1, TIED).filter((id) => Number(id) % 2 === 1);
    expect(await TiedItem.findIds({ group: 'odd' }, { orderBy: { [attribute]: 'asc' } })).toEqual(odd);
    expect(await TiedItem.findIds({ group: 'odd' }, { orderBy: { [attribute]: 'desc' } })).toEqual([...odd].reverse());
    expect(await TiedItem.findIds({ group: 'odd' }, { orderBy: { [attribute]: 'asc' }, offset: 4, limit: 3 })).toEqual(['9', '11', '13']);
    expect(await TiedItem.findIds({ group: 'even' }, { orderBy: { [attribute]: 'desc' }, offset: 2, limit: 3 })).toEqual([
      '100',
      '98',
      '96',
    ]);
  });

  it('the default order is by id, numerically', async () => {
    expect(await TiedItem.findIds()).toEqual(range(1, TIED));
    expect(await TiedItem.findIds({}, { offset: 8, limit: 3 })).toEqual(['9', '10', '11']);
    expect(await TiedItem.findIds({ group: 'even' }, { offset: 48 })).toEqual(['98', '100', '102', '104']);
  });
});

describe('every page of every order matches the documented order', () => {
  const ORDERS = [
    undefined,
    { score: 'asc' },
    { score: 'desc' },
    { name: 'asc' },
    { name: 'desc' },
    { at: 'asc' },
    { at: 'desc' },
  ] as const;
  // [label, where, every offset (else a sample)]: the first two are the two ways of reading a page.
  const WHERES: Array<[string, Record<string, unknown> | undefined, boolean]> = [
    ['no where', undefined, true],
    ['a where on another attribute', { parity: 'odd' }, true],
    ['a range on the score', { score: { gte: 1 } }, false],
    ['a range on the name', { name: { gte: 'xy' } }, false],
    ['an OR', { OR: [{ score: 0 }, { name: 'y' }] }, false],
  ];
  const everyOffset = Array.from({ length: COUNT + 3 }, (_, i) => i);
  const someOffsets = [0, 1, 5, 13, 29, 30, 31, 44, 60, 77, 89, 90, 91, 119, 120, 121, 122, 500];

  describe.each(WHERES)('%s', (_, where, everyOne) => {
    it.each(ORDERS.map((orderBy) => [JSON.stringify(orderBy ?? 'id'), orderBy] as const))('ordered by %s', async (__, orderBy) => {
      const pages: Array<{ offset: number; limit?: number }> = [
        ...(everyOne ? everyOffset : someOffsets).map((offset) => ({ offset, limit: 7 })),
        ...someOffsets.flatMap((offset) => [{ offset, limit: 0 }, { offset, limit: 1 }, { offset }, { offset, limit: 50 }]),
      ];
      const options = pages.map((page) => ({ orderBy, ...page }));
      const answers = await Promise.all(options.map((option) => PagedItem.findIds(where as never, option as never)));
      const full = expectedIds(rows, where, { orderBy });
      const wanted = pages.map(({ offset, limit }) => full.slice(offset, limit === undefined ? undefined : offset + limit));
      const wrong = options.filter((_o, i) => JSON.stringify(answers[i]) !== JSON.stringify(wanted[i]));
      expect(
        wrong.slice(0, 3).map((option) => ({ option, got: answers[options.indexOf(option)], wanted: wanted[options.indexOf(option)] })),
      ).toEqual([]);
    });
  });

  it("'desc' is the exact reverse of 'asc'", async () => {
    for (const attribute of ['score', 'name', 'at'] as const) {
      for (const [, where] of WHERES) {
        const asc = await PagedItem.findIds(where as never, { orderBy: { [attribute]: 'asc' } });
        const desc = await PagedItem.findIds(where as never, { orderBy: { [attribute]: 'desc' } });
        expect(desc).toEqual([...asc].reverse());
      }
    }
  });

  it('objects without the ordered value come last in asc and first in desc', async () => {
    const withoutScore = rows.filter((row) => row.score === undefined).map((row) => row.id);
    const asc = await PagedItem.findIds({}, { orderBy: { score: 'asc' } });
    expect(asc.slice(-withoutScore.length)).toEqual(withoutScore);
    const desc = await PagedItem.findIds({}, { orderBy: { score: 'desc' } });
    expect(desc.slice(0, withoutScore.length)).toEqual([...withoutScore].reverse());
    const withoutName = rows.filter((row) => row.name === undefined).map((row) => row.id);
    expect((await PagedItem.findIds({ parity: 'even' }, { orderBy: { name: 'asc' } })).slice(-withoutName.length / 2)).toEqual(
      withoutName.filter((id) => Number(id) % 2 === 0),
    );
    // ranges never match an absent value, even the widest
    expect(await PagedItem.count({ score: { gte: -Number.MAX_VALUE } })).toBe(COUNT - withoutScore.length);
    expect(await PagedItem.count({ name: { gte: '' } })).toBe(COUNT - withoutName.length);
  });
});

describe('groups of one id beside tie groups', () => {
  // a page read straight from the index: groups of one need no ordering, and a group the page holds whole
  // (it begins at the page's start, or the page reaches the end of the range) is not read again
  it.each(['asc', 'desc'] as const)('every page, %s, matches the documented order', async (direction) => {
    const full = expectedIds(mixedRows, undefined, { orderBy: { score: direction } });
    expect(await MixedItem.findIds({}, { orderBy: { score: direction } })).toEqual(full);
    const pages = Array.from({ length: MIXED + 2 }, (_, offset) => [1, 2, 3, 7, 25, undefined].map((limit) => ({ offset, limit }))).flat();
    const answers = await Promise.all(pages.map((page) => MixedItem.findIds({}, { orderBy: { score: direction }, ...page })));
    const wrong = pages.filter(
      ({ offset, limit }, i) =>
        JSON.stringify(answers[i]) !== JSON.stringify(full.slice(offset, limit === undefined ? undefined : offset + limit)),
    );
    expect(wrong.slice(0, 3)).toEqual([]);
    const ranged = await MixedItem.findIds({ score: { gte: 15, lte: 201 } }, { orderBy: { score: direction }, offset: 10, limit: 30 });
    expect(ranged).toEqual(expectedIds(mixedRows, { score: { gte: 15, lte: 201 } }, { orderBy: { score: direction } }).slice(10, 40));
  });
});

describe('page edges', () => {
  it('an offset past the end, a limit of 0, and a page crossing the end', async () => {
    expect(await PagedItem.findBy({}, { offset: COUNT })).toEqual([]);
    expect(await PagedItem.findBy({}, { offset: COUNT + 1000, limit: 5 })).toEqual([]);
    expect(await PagedItem.findBy({}, { orderBy: { score: 'desc' }, offset: COUNT })).toEqual([]);
    expect(await PagedItem.findBy({ parity: 'odd' }, { orderBy: { name: 'asc' }, offset: 61 })).toEqual([]);
    expect(await PagedItem.findBy({}, { limit: 0 })).toEqual([]);
    expect(await PagedItem.findBy({}, { orderBy: { at: 'asc' }, limit: 0 })).toEqual([]);
    expect(await PagedItem.findBy({ parity: 'odd' }, { orderBy: { score: 'asc' }, offset: 3, limit: 0 })).toEqual([]);
    expect(ids(await PagedItem.findBy({}, { offset: COUNT - 2, limit: 10 }))).toEqual(['120', '121']);
    expect(await PagedItem.findIds({}, { orderBy: { score: 'asc' }, offset: COUNT - 2, limit: 10 })).toEqual(
      expectedIds(rows, undefined, { orderBy: { score: 'asc' } }).slice(-2),
    );
  });

  it('findBy returns whole objects, in the order of findIds', async () => {
    const options = { orderBy: { name: 'desc' }, offset: 10, limit: 20 } as const;
    const found = await PagedItem.findBy({ parity: 'even' }, options);
    expect(ids(found)).toEqual(await PagedItem.findIds({ parity: 'even' }, options));
    for (const item of found)
      expect(JSON.parse(JSON.stringify(item))).toEqual(JSON.parse(JSON.stringify(rows.find((row) => row.id === item.id))));
  });
});

describe('iterate', () => {
  it.each([1, 7, 11, 121, 500])('visits every match once in id order, %i per batch', async (batchSize) => {
    const seen: string[] = [];
    for await (const item of PagedItem.iterate({}, { batchSize })) seen.push(item.id);
    expect(seen).toEqual(range(1, COUNT));
    const odd: string[] = [];
    for await (const item of PagedItem.iterate({ parity: 'odd' }, { batchSize })) odd.push(item.id);
    expect(odd).toEqual(expectedIds(rows, { parity: 'odd' }));
    const ranged: string[] = [];
    for await (const item of PagedItem.iterate({ score: { gt: 0 }, name: { startsWith: 'x' } }, { batchSize })) ranged.push(item.id);
    expect(ranged).toEqual(expectedIds(rows, { score: { gt: 0 }, name: { startsWith: 'x' } }));
  });

  it('visits nothing when nothing matches', async () => {
    const seen: string[] = [];
    for await (const item of PagedItem.iterate({ parity: 'none' }, { batchSize: 3 })) seen.push(item.id);
    expect(seen).toEqual([]);
  });
});

describe('uuid ids', () => {
  const byBytes = () => uuidRows.map((row) => row.id).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

  it('are ordered by their bytes by default, and ties too', async () => {
    expect(await PagedUuidItem.findIds()).toEqual(byBytes());
    for (const orderBy of [{ score: 'asc' }, { score: 'desc' }, { name: 'asc' }, { name: 'desc' }] as const) {
      for (const where of [undefined, { parity: 'odd' }, { score: { lt: 2 } }]) {
        const all = await PagedUuidItem.findIds(where as never, { orderBy });
        expect(all).toEqual(expectedIds(uuidRows, where, { orderBy }, 'uuid'));
        for (const offset of [0, 3, 7, 8, 13, 20, 39, 40]) {
          expect(await PagedUuidItem.findIds(where as never, { orderBy, offset, limit: 3 })).toEqual(all.slice(offset, offset + 3));
        }
      }
    }
  });

  it('iterate visits every match once, in id order', async () => {
    for (const batchSize of [1, 4, 40, 100]) {
      const seen: string[] = [];
      for await (const item of PagedUuidItem.iterate({}, { batchSize })) seen.push(item.id);
      expect(seen).toEqual(byBytes());
      const even: string[] = [];
      for await (const item of PagedUuidItem.iterate({ parity: 'even', score: { gte: 0 } }, { batchSize })) even.push(item.id);
      expect(even).toEqual(expectedIds(uuidRows, { parity: 'even', score: { gte: 0 } }, {}, 'uuid'));
    }
  });
});

describe('after the queries', () => {
  it('the indexes agree with the objects and no temporary key is left', async () => {
    for (const model of [PagedItem, TiedItem, PagedUuidItem]) await expectIndexesConsistent(model, redis.raw, redis.prefix);
    expect(await temporaryKeys(redis.raw, redis.prefix)).toEqual([]);
  });
});
