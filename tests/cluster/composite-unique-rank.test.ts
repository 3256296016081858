import { Attr, BaseEntity, Index, Model, Unique, UniqueConstraintError } from '../../src';
import { expectIndexesConsistent, expectShardsConsistent } from '../support/index-consistency';
import { useTestCluster } from '../support/test-cluster';

/**
 * Composite uniques on a 3-master Redis Cluster: in one model's slot (its claims beside its objects), in a tenant
 * scope, and across the shards of a sharded model (claimed under the combined value's own tag). Model.rank on a
 * sharded model: the counts of every shard summed, in the order of the merged find({ orderBy }).
 */

@Model({ group: 'cuc' })
@Unique(['userId', 'channelId'])
class CucSubscription extends BaseEntity {
  @Attr() @Index() userId?: number;
  @Attr() channelId?: string;
}

@Model({ shards: 6 })
@Unique(['userId', 'channelId'])
class CucShardedSub extends BaseEntity {
  @Attr() @Index() userId?: number;
  @Attr() channelId?: string;
}

const cluster = useTestCluster();

describe('composite uniques on a cluster', () => {
  it('are enforced in a model, in each tenant apart, and check() finds them exact', async () => {
    await CucSubscription.create({ userId: 1, channelId: 'a' });
    await expect(CucSubscription.create({ userId: 1, channelId: 'a' })).rejects.toBeInstanceOf(UniqueConstraintError);
    const acme = CucSubscription.scope('acme');
    await acme.create({ userId: 1, channelId: 'a' });
    await expect(acme.create({ userId: 1, channelId: 'a' })).rejects.toMatchObject({ attributes: ['userId', 'channelId'] });
    expect((await CucSubscription.check()).violations).toEqual([]);
    expect((await acme.check()).violations).toEqual([]);
    await expectIndexesConsistent(CucSubscription, cluster.raw, cluster.prefix);
  });

  it('hold across the shards of a sharded model: racing creates make one object, a change moves the claim', async () => {
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => CucShardedSub.create({ userId: 5, channelId: 'x' })));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results) if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(UniqueConstraintError);
    const other = await CucShardedSub.create({ userId: 6, channelId: 'x' });
    other.userId = 5;
    await expect(other.save()).rejects.toBeInstanceOf(UniqueConstraintError);
    const [held] = await CucShardedSub.findBy({ userId: 5 });
    held.channelId = 'y';
    await held.save();
    await other.save(); // (5, x) was released by the change
    const saved = await CucShardedSub.saveMany([
      CucShardedSub.build({ userId: 5, channelId: 'y' }),
      CucShardedSub.build({ userId: 7, channelId: 'y' }),
      CucShardedSub.build({ userId: 7, channelId: 'y' }),
    ]);
    expect(saved.failed.map(({ index }) => index)).toEqual([0, 2]);
    await held.remove();
    await CucShardedSub.create({ userId: 5, channelId: 'y' });
    expect(await CucShardedSub.count()).toBe(3);
    const report = await CucShardedSub.check();
    expect(report.violations).toEqual([]);
    await expectShardsConsistent(CucShardedSub, cluster.raw, cluster.prefix);
  });
});

describe('Model.rank on a cluster', () => {
  it('of a sharded model is the place find({ orderBy }) gives across the shards, ties by id', async () => {
    for (let i = 0; i < 30; i++) await CucShardedSub.create({ userId: 100 + (i % 4), channelId: `r${i}` });
    for (const order of ['asc', 'desc'] as const) {
      const ids = await CucShardedSub.findIds({}, { orderBy: { userId: order } });
      const ranks = await Promise.all(ids.map((id) => CucShardedSub.rank(id, { by: 'userId', order })));
      expect(ranks).toEqual(ids.map((_, i) => i));
    }
    expect(await CucShardedSub.rank('999999', { by: 'userId' })).toBeNull();
    const [first] = await CucSubscription.findIds({}, { orderBy: { userId: 'desc' } });
    expect(await CucSubscription.rank(first, { by: 'userId', order: 'desc' })).toBe(0);
  });
});
