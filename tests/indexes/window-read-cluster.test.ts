import { Attr, BaseEntity, Index, Model } from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { expectedIds, Row } from '../support/query-oracle';
import { clusterKeysUnder, useTestCluster } from '../support/test-cluster';

/**
 * On a Redis Cluster, a where one index window answers is read as on one server: findIds and count with
 * window.lua (its keys share the model's hash tag), whole-window loads with query.lua (Redis 7.0 refuses SORT's
 * GET patterns in cluster mode, so the SORT_RO read is not used there). Same answers as the oracle, for a
 * model and for a model sharded over the masters, and no temporary key.
 */

@Model()
class ClusterReading extends BaseEntity {
  @Attr() @Index() sensor?: string;
  @Attr() @Index({ scope: 'sensor' }) value?: number;
}

@Model({ shards: 6 })
class ClusterShardedReading extends BaseEntity {
  @Attr() @Index() sensor?: string;
  @Attr() @Index({ scope: 'sensor' }) value?: number;
}

const cluster = useTestCluster();
const rows: Row[] = [];
const shardedRows: Row[] = [];

beforeAll(async () => {
  for (let i = 1; i <= 150; i++) {
    const input = { sensor: i % 3 === 0 ? 's0' : 's1', value: i % 10 === 0 ? undefined : (i * 7) % 17 };
    rows.push({ id: (await ClusterReading.create(input)).id, ...input });
    shardedRows.push({ id: (await ClusterShardedReading.create(input)).id, ...input });
  }
});

const WHERES = [
  { sensor: 's0', value: { gte: 3, lte: 9 } },
  { sensor: 's1', value: 4 },
  { sensor: 's1', value: { gt: 100 } },
];

describe.each([
  ['a model', ClusterReading, rows],
  ['a sharded model', ClusterShardedReading, shardedRows],
] as const)('%s on a cluster', (_, Reading, source) => {
  it.each(WHERES.map((where) => [JSON.stringify(where), where]))('%s: ids, a page, count and objects as the oracle', async (__, where) => {
    const expected = expectedIds(source, where);
    expect(await Reading.findIds(where)).toEqual(expected);
    expect(await Reading.findIds(where, { offset: 2, limit: 5 })).toEqual(expected.slice(2, 7));
    expect(await Reading.count(where)).toBe(expected.length);
    const objects = await Reading.findBy(where);
    expect(objects.map((reading) => [reading.id, reading.sensor, reading.value])).toEqual(
      expected.map((id) => {
        const row = source.find((candidate) => candidate.id === id)!;
        return [row.id, row.sensor, row.value];
      }),
    );
  });
});

describe('afterwards', () => {
  it('the indexes are consistent and no temporary key is left', async () => {
    await expectIndexesConsistent(ClusterReading, cluster.raw, cluster.prefix);
    expect((await clusterKeysUnder(cluster.cluster, cluster.prefix)).filter((key) => key.includes(':tmp:'))).toEqual([]);
  });
});
