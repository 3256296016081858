import { Attr, BaseEntity, Index, Model, SortableString, Unique, Where } from '../../src';
import { seeded } from '../../tools/seeded-random';
import { expectIndexesConsistent, expectShardsConsistent } from '../support/index-consistency';
import { expectedIds, Row } from '../support/query-oracle';
import { randomWheres } from '../support/random-wheres';
import { useTestCluster } from '../support/test-cluster';

/**
 * not, notIn and exists, keyset pages and countBy on a 3-master cluster: a model of one hash tag and a model
 * sharded over six, each against the query oracle (a smaller run than tests/indexes/query-negation.test.ts).
 */

@Model()
class ClusterFacetItem extends BaseEntity {
  @Attr() @Index() n?: number;
  @Attr() @Index({ sortable: true }) word?: SortableString;
  @Attr() @Index() color?: string;
  @Attr() @Unique() code?: string;
}

@Model({ shards: 6 })
class ShardedFacetItem extends BaseEntity {
  @Attr() @Index() n?: number;
  @Attr() @Index({ sortable: true }) word?: SortableString;
  @Attr() @Index() color?: string;
  @Attr() @Unique() code?: string;
}

const cluster = useTestCluster();
const random = seeded(77);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
const maybe = <T>(value: T): T | undefined => (random() < 0.25 ? undefined : value);
const WORDS = ['', 'a', 'ab', 'b'];
const COLORS = ['red', 'green', 'blue'];
const randomWhere = randomWheres(random, {
  values: {
    n: () => Math.floor(random() * 5),
    word: () => pick(WORDS),
    color: () => pick(COLORS),
    code: () => `C${Math.floor(random() * 80)}`,
  },
  ordered: new Set(['n', 'word']),
});

const models = [
  ['one hash tag', ClusterFacetItem],
  ['sharded six ways', ShardedFacetItem],
] as const;
const rowsOf = new Map<unknown, Row[]>();

beforeAll(async () => {
  for (const [, Item] of models) {
    const rows: Row[] = [];
    for (let i = 0; i < 60; i++) {
      const input = { n: maybe(Math.floor(random() * 5)), word: maybe(pick(WORDS)), color: maybe(pick(COLORS)), code: maybe(`C${i}`) };
      const item = await (Item as typeof ClusterFacetItem).create(input);
      rows.push({ id: item.id, ...input });
    }
    rowsOf.set(Item, rows);
  }
});

describe.each(models)('a model of %s', (_, Model) => {
  const Item = Model as typeof ClusterFacetItem;

  it('answers 80 random wheres of not, notIn, exists, in, ranges, AND and OR as a filter over every object does', async () => {
    const rows = rowsOf.get(Model)!;
    for (let q = 0; q < 80; q++) {
      const where = randomWhere();
      const orderBy = pick([undefined, { n: 'desc' }, { word: 'asc' }] as const);
      const [ids, count] = await Promise.all([Item.findIds(where as never, { orderBy, limit: 8 }), Item.count(where as never)]);
      expect({ where, ids, count }).toEqual({
        where,
        ids: expectedIds(rows, where, { orderBy, limit: 8 }),
        count: expectedIds(rows, where).length,
      });
    }
  });

  it('pages with findPage through every match once, in order', async () => {
    const rows = rowsOf.get(Model)!;
    const where: Where<ClusterFacetItem> = { color: { not: 'green' } };
    for (const orderBy of [undefined, { n: 'asc' }, { word: 'desc' }] as const) {
      const ids: string[] = [];
      let after: string | undefined;
      do {
        const page = await Item.findPage(where, { orderBy, limit: 7, after });
        ids.push(...page.items.map((item) => item.id));
        after = page.next ?? undefined;
      } while (after !== undefined);
      expect({ orderBy, ids }).toEqual({ orderBy, ids: expectedIds(rows, where as Record<string, unknown>, { orderBy }) });
    }
  });

  it('counts each value with countBy, summed over the shards', async () => {
    const rows = rowsOf.get(Model)!;
    for (const attribute of ['color', 'n', 'word'] as const) {
      const counts: Record<string, number> = {};
      for (const row of rows.filter((r) => r.code !== undefined)) {
        const value = row[attribute];
        if (value !== undefined) counts[String(value)] = (counts[String(value)] ?? 0) + 1;
      }
      expect(await Item.countBy(attribute, { code: { exists: true } })).toEqual(counts);
    }
    if (Model === ShardedFacetItem) await expectShardsConsistent(Model, cluster.raw, cluster.prefix);
    else await expectIndexesConsistent(Model, cluster.raw, cluster.prefix);
  });
});
