import { ArgumentError, Attr, BaseEntity, Counter, Index, LockTimeoutError, Model, ReplicationError, SchemaError, Unique } from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { clusterKeysUnder, useTestCluster } from '../support/test-cluster';

/**
 * Expiry and sweep, capped models, counters, locks and waitReplicas on a Redis Cluster (3 masters, 3 replicas).
 */

@Model({ ttl: 1 })
class CxLog extends BaseEntity {
  @Attr() @Index() level?: string;
  @Attr() @Unique() ref?: string;
}

@Model({ cap: { by: 'score', keep: 3 } })
class CxTop extends BaseEntity {
  @Attr() player?: string;
  @Attr() @Index() score?: number;
}

@Model({ cap: { by: 'at', keep: 2, per: 'userId' } })
class CxLogin extends BaseEntity {
  @Attr() userId?: string;
  @Attr() @Index({ scope: 'userId' }) at?: number;
  @Attr() @Unique() token?: string;
}

@Model()
class CxPost extends BaseEntity {
  @Attr() title?: string;
  @Counter() @Index() views = 0;
}

// a budget that holds on a loaded machine (WAIT returns once a replica acknowledges); the test of a replica
// that does not acknowledge gives its calls 300 ms
@Model({ waitReplicas: 1, waitTimeoutMs: 30_000 })
class CxOrder extends BaseEntity {
  @Attr() @Index() state?: string;
  @Counter() items = 0;
}

const cluster = useTestCluster();
const keysOf = async (tag: string) => (await clusterKeysUnder(cluster.cluster, cluster.prefix)).filter((k) => k.includes(`{${tag}}`));

describe('expiry', () => {
  it('hides expired objects at once, frees their uniques, and the sweep leaves no key', async () => {
    await CxLog.create({ level: 'info', ref: 'a' });
    await CxLog.create({ level: 'warn', ref: 'b' });
    expect(await CxLog.count({ level: 'info' })).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await CxLog.count()).toBe(0);
    expect(await CxLog.find('1')).toBeNull();
    expect(await CxLog.sweep()).toBe(2);
    expect(await CxLog.findBy({ level: 'info' })).toEqual([]);
    expect((await keysOf('CxLog')).filter((k) => /:(obj|memo):/.test(k))).toEqual([]);
    const fresh = await CxLog.create({ level: 'info', ref: 'a' });
    await fresh.persist();
    expect((await keysOf('CxLog')).filter((k) => k.includes(':obj:'))).toEqual([`${cluster.prefix}:{CxLog}:obj:${fresh.id}`]);
    expect((await CxLog.findOneBy({ ref: 'a' }))?.id).toBe(fresh.id);
    await expectIndexesConsistent(CxLog, cluster.raw, cluster.prefix);
  });
});

describe('capped models', () => {
  it('keep exactly the top N and delete the rest whole', async () => {
    for (const [player, score] of [
      ['a', 5],
      ['b', 9],
      ['c', 5],
      ['d', 1],
      ['e', 7],
    ] as const)
      await CxTop.create({ player, score });
    const top = await CxTop.findBy({}, { orderBy: { score: 'desc' } });
    expect(top.map((p) => [p.player, p.score])).toEqual([
      ['b', 9],
      ['e', 7],
      ['c', 5],
    ]);
    expect((await keysOf('CxTop')).filter((k) => k.includes(':obj:'))).toHaveLength(3);
    await expectIndexesConsistent(CxTop, cluster.raw, cluster.prefix);
  });

  it('removeMany takes each object whole, its memo with it', async () => {
    const kept = (await CxTop.findBy({}, { orderBy: { score: 'desc' } })).map((p) => p.id!);
    const result = await CxTop.removeMany([...kept.slice(0, 2), '777'], { chunkSize: 2 });
    expect(result.removed).toEqual(kept.slice(0, 2));
    expect(result.missing).toEqual(['777']);
    const left = await keysOf('CxTop');
    expect(left.filter((k) => /:(obj|memo):/.test(k)).sort()).toEqual([
      `${cluster.prefix}:{CxTop}:memo:${kept[2]}`,
      `${cluster.prefix}:{CxTop}:obj:${kept[2]}`,
    ]);
    await expectIndexesConsistent(CxTop, cluster.raw, cluster.prefix);
  });
});

describe('a cap per value', () => {
  it('trims each user in the write, in a tenant too: creates, a save moving a login, saveMany', async () => {
    for (const Login of [CxLogin, CxLogin.scope('t1')]) {
      for (const [userId, at] of [
        ['a', 1],
        ['a', 2],
        ['a', 3],
        ['b', 1],
        ['b', 2],
      ] as const) {
        await Login.create({ userId, at, token: `${userId}${at}` });
      }
      const moved = (await Login.findOneBy({ userId: 'a' }, { orderBy: { at: 'desc' } }))!;
      moved.userId = 'b';
      await moved.save(); // b keeps 3 (moved) and 2; a keeps 2
      const batch = await Login.saveMany([
        { userId: 'a', at: 9, token: 'a9' },
        { userId: 'c', at: 1, token: 'c1' },
        { userId: 'b', at: 0, token: 'b0' }, // below b's two: evicted at once
      ]);
      expect(batch.ok).toBe(true);
      const ats = async (userId: string) => (await Login.findBy({ userId }, { orderBy: { at: 'desc' } })).map((l) => [l.token, l.at]);
      expect([await ats('a'), await ats('b'), await ats('c')]).toEqual([
        [
          ['a9', 9],
          ['a2', 2],
        ],
        [
          ['a3', 3],
          ['b2', 2],
        ],
        [['c1', 1]],
      ]);
      expect((await Login.check()).violations).toEqual([]);
      await expectIndexesConsistent(Login, cluster.raw, cluster.prefix);
    }
    // every key of a tenant's groups shares its hash tag
    const tenantKeys = (await clusterKeysUnder(cluster.cluster, cluster.prefix)).filter((k) => k.includes('{t1/CxLogin}'));
    expect(tenantKeys.filter((k) => k.includes(':idx:at@userId:')).sort()).toEqual(
      ['a', 'b', 'c'].map((userId) => `${cluster.prefix}:{t1/CxLogin}:idx:at@userId:${userId}`),
    );
    expect(tenantKeys.filter((k) => k.includes(':obj:'))).toHaveLength(5);
  });
});

describe('counters and locks', () => {
  it('increments atomically with the index in step', async () => {
    const post = await CxPost.create({ title: 'x' });
    const other = await CxPost.findOrFail(post.id);
    await Promise.all(Array.from({ length: 100 }, () => other.increment('views')));
    expect(await post.increment('views', 0.5)).toBe(100.5);
    expect(await CxPost.findIds({ views: { gt: 100 } })).toEqual([post.id]);
    await expectIndexesConsistent(CxPost, cluster.raw, cluster.prefix);
  });

  it('gives mutual exclusion and times out', async () => {
    const post = await CxPost.create({ title: 'lock' });
    let inside = 0;
    let overlap = false;
    await Promise.all(
      Array.from({ length: 4 }, () =>
        CxPost.withLock(post.id, async (p) => {
          if (++inside > 1) overlap = true;
          await new Promise((resolve) => setTimeout(resolve, 10));
          p.title = `${p.title}!`;
          await p.save();
          inside--;
        }),
      ),
    );
    expect(overlap).toBe(false);
    expect((await CxPost.findOrFail(post.id)).title).toBe('lock!!!!');
    await expect(
      CxPost.withLock(post.id, () => CxPost.withLock(post.id, async () => 1, { waitMs: 30 }), { waitMs: 30 }),
    ).rejects.toBeInstanceOf(LockTimeoutError);
    expect(await keysOf('CxPost').then((keys) => keys.filter((k) => k.includes(':lock:')))).toEqual([]);
  });
});

describe('waitReplicas', () => {
  /** The replica of the master holding `tag`'s slot, as a node client. */
  async function replicaOf(key: string) {
    const slot = Number(await cluster.cluster.sendCommand(key, true, ['CLUSTER', 'KEYSLOT', key]));
    const shard = cluster.cluster.slots[slot];
    const master = await cluster.cluster.nodeClient(shard.master);
    const info = String(await master.sendCommand(['INFO', 'replication']));
    const match = /slave0:ip=([^,]+),port=(\d+)/.exec(info);
    if (!match) throw new Error(`no replica of the master of ${key}: ${info}`);
    return { host: match[1], port: Number(match[2]) };
  }

  it('resolves once a replica has each save, remove and increment', async () => {
    const order = await CxOrder.create({ state: 'new' });
    order.state = 'paid';
    await order.save();
    expect(await order.increment('items', 2)).toBe(2);
    const plain = await CxPost.create({ title: 'w' });
    await plain.save({ waitReplicas: 1 });
    await order.remove();
    expect(await CxOrder.count()).toBe(0);
    // the bulk calls: one WAIT on the master of the model's slot, after the call's writes
    const bulk = await CxOrder.saveMany([{ state: 'a' }, { state: 'b' }]);
    expect(bulk.ok).toBe(true);
    expect((await CxOrder.removeMany(bulk.saved.map((item) => item.id))).ok).toBe(true);
  });

  it('throws ReplicationError when no replica acknowledges in time, and the write stands', async () => {
    const { createClient } = await import('redis');
    const key = `${cluster.prefix}:{CxOrder}:all`;
    const address = await replicaOf(key);
    const replica = createClient({ socket: { host: address.host, port: address.port } });
    await replica.connect();
    try {
      // The replica sleeps: it reads nothing from its master for 1.5 s.
      const sleeping = replica.sendCommand(['DEBUG', 'SLEEP', '1.5']);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const order = CxOrder.build({ state: 'sleepy' });
      const error = await order.save({ waitTimeoutMs: 300 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ReplicationError);
      expect(error).toMatchObject({ model: 'CxOrder', id: order.id, operation: 'create', wanted: 1, acknowledged: 0, timeoutMs: 300 });
      expect((error as Error).message).toMatch(/the write is applied on the master/);
      expect(order.isPersisted()).toBe(true);
      expect((await CxOrder.findOrFail(order.id!)).state).toBe('sleepy');
      await sleeping;
      // The replica caught up: the next write waits and succeeds.
      await order.increment('items');
      // saveMany the same way: each item written is reported, written, with the error
      const asleep = replica.sendCommand(['DEBUG', 'SLEEP', '1.5']);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const bulk = await CxOrder.saveMany([{ state: 'bulk' }], { waitTimeoutMs: 300 });
      expect(bulk.failed.map((failure) => [failure.error.constructor.name, failure.written])).toEqual([['ReplicationError', true]]);
      expect((await CxOrder.findOrFail(bulk.failed[0].entity!.id!)).state).toBe('bulk');
      await asleep;
    } finally {
      await replica.close();
    }
  });

  it('refuses bad options before writing anything', async () => {
    const before = await CxPost.count();
    await expect(CxPost.create({ title: 'x' }, { waitReplicas: -1 })).rejects.toThrow(ArgumentError);
    await expect(CxPost.build({ title: 'x' }).save({ waitReplicas: 1, waitTimeoutMs: 0 })).rejects.toThrow(/waitTimeoutMs/);
    expect(await CxPost.count()).toBe(before);
    expect(() => {
      @Model({ waitReplicas: 1.5 })
      class CxBad extends BaseEntity {
        @Attr() a?: string;
      }
      return CxBad;
    }).toThrow(SchemaError);
  });
});
