import { ArgumentError, Attr, BaseEntity, BelongsTo, Index, Model, RelationError, Unique, UniqueConstraintError } from '../../src';
import { claimKey } from '../../src/keys/claim-keys';
import { expectIndexesConsistent, expectShardsConsistent } from '../support/index-consistency';
import { useTestCluster } from '../support/test-cluster';

/**
 * Model.update, Model.upsert and a ttl given with a write on a 3-master cluster: each one script on the
 * object's master (its keys share the model's or group's hash tag), tenants under their own tag, and the
 * update of a sharded model claiming its unique values across shards.
 */

@Model({ group: 'wfeeds' })
class WcFeed extends BaseEntity {
  @Attr() name!: string;
}

@Model({ group: 'wfeeds', expirable: true })
class WcItem extends BaseEntity {
  @Attr() @Unique() url!: string;
  @Attr() @Index() state!: string;
  feedId?: string;
  @BelongsTo(() => WcFeed) feed!: BelongsTo<WcFeed>;
}

@Model({ shards: 6 })
class WcAccount extends BaseEntity {
  @Attr() @Unique() email?: string;
  @Attr() @Index() plan?: string;
}

const cluster = useTestCluster();

describe('writes without a loaded instance on a cluster', () => {
  it('updates and upserts in a group, checking the parent, with a ttl', async () => {
    const feed = await WcFeed.create({ name: 'news' });
    const { entity, created } = await WcItem.upsert({ url: 'u1', state: 'new', feedId: feed.id }, { on: 'url', ttl: 60 });
    expect(created).toBe(true);
    expect((await entity.ttl())!).toBeLessThanOrEqual(60);
    expect((await WcItem.upsert({ url: 'u1', state: 'seen' }, { on: 'url' })).entity.id).toBe(entity.id);
    expect((await WcItem.update(entity.id, { state: 'read' }, { ttl: 120 })).state).toBe('read');
    expect((await entity.ttl())!).toBeGreaterThan(60);
    await expect(WcItem.update(entity.id, { feedId: '404' })).rejects.toThrow(RelationError);
    const logged = await WcItem.create({ url: 'u2', state: 'new' }, { ttl: 30 });
    expect((await logged.ttl())!).toBeLessThanOrEqual(30);
    expect(await WcItem.findIds({ state: 'read' })).toEqual([entity.id]);
    await expectIndexesConsistent(WcItem, cluster.raw, cluster.prefix);
  });

  it('works in tenants, each under its own tag', async () => {
    const acme = await WcItem.scope('acme').upsert({ url: 'shared', state: 'a' }, { on: 'url' });
    const other = await WcItem.scope('other').upsert({ url: 'shared', state: 'b' }, { on: 'url' });
    expect([acme.created, other.created]).toEqual([true, true]);
    expect((await WcItem.scope('acme').update(acme.entity.id, { state: 'c' })).state).toBe('c');
    expect((await WcItem.scope('other').findOneBy({ url: 'shared' }))?.state).toBe('b');
  });

  it('updates a sharded model: a unique value claimed across shards, a cleared one free at once', async () => {
    const claimOf = (email: string) => cluster.raw.get(claimKey(cluster.prefix, 'WcAccount', undefined, 'email', email));
    const accounts = await Promise.all(Array.from({ length: 12 }, (_, i) => WcAccount.create({ email: `a${i}@x.io`, plan: 'free' })));
    const [first, second] = accounts;
    const taken = await WcAccount.update(second.id, { email: 'a0@x.io', plan: 'pro' }).catch((caught: unknown) => caught);
    expect(taken).toBeInstanceOf(UniqueConstraintError);
    expect((await WcAccount.findOrFail(second.id)).plan).toBe('free');
    expect((await WcAccount.update(first.id, { email: 'moved@x.io' })).email).toBe('moved@x.io');
    expect(await claimOf('a0@x.io')).toBeNull();
    expect((await WcAccount.update(second.id, { email: 'a0@x.io', plan: 'pro' })).plan).toBe('pro');
    await WcAccount.update(first.id, { email: null });
    expect(await claimOf('moved@x.io')).toBeNull();
    expect(await WcAccount.count({ plan: 'free' })).toBe(11);
    await expect(WcAccount.upsert({ email: 'z@x.io' }, { on: 'email' })).rejects.toThrow(ArgumentError);
    expect((await WcAccount.check()).violations).toEqual([]);
    await expectShardsConsistent(WcAccount, cluster.raw, cluster.prefix);
  });
});
