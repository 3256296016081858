import calculateSlot = require('cluster-key-slot');
import { Attr, BaseEntity, Index, Model, Unique, UniqueConstraintError } from '../../src';
import { claimKey } from '../../src/keys/claim-keys';
import { descriptorOf } from '../../src/model/model-registry';
import { expectShardsConsistent } from '../support/index-consistency';
import { keysPerMaster, useTestCluster } from '../support/test-cluster';

/**
 * A sharded model on a 3-master cluster: its shards spread evenly over the masters, every single-object
 * operation is one atomic script on the object's master, queries run on every shard at once and merge, and a
 * unique value holds across shards (claims live on whichever master the value's tag falls on).
 */

@Model({ shards: 16 })
class SpreadPost extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr() @Index() score?: number;
  @Attr() @Unique() slug?: string;
}

/** Sharded without a unique attribute: saveMany's changes go as one update-many.lua call per shard of a chunk. */
@Model({ shards: 8 })
class SpreadNote extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr() body?: string;
}

const cluster = useTestCluster();

describe('a model sharded 16 ways on 3 masters', () => {
  const rows = Array.from({ length: 600 }, (_, i) => ({ topic: `t${i % 6}`, score: (i * 37) % 101, slug: `post-${i}` }));

  beforeAll(async () => {
    const result = await SpreadPost.saveMany(rows.slice(0, 500).map((row) => SpreadPost.build(row)));
    expect(result.failed).toEqual([]);
    await Promise.all(rows.slice(500).map((row) => SpreadPost.create(row)));
  });

  it('holds an even share of the shards, and of the keys, on every master', async () => {
    const masters = cluster.cluster.masters;
    expect(masters).toHaveLength(3);
    const shardsPerMaster = new Map<string, number>();
    for (const keys of descriptorOf(SpreadPost).shardKeys(cluster.prefix)) {
      const master = cluster.cluster.getSlotMaster(calculateSlot(keys.all));
      const name = `${master.host}:${master.port}`;
      shardsPerMaster.set(name, (shardsPerMaster.get(name) ?? 0) + 1);
    }
    // 16 shards over 3 equal slot ranges: 5 or 6 each
    expect([...shardsPerMaster.values()].sort()).toEqual([5, 5, 6]);
    const keys = [...(await keysPerMaster(cluster.cluster, cluster.prefix)).values()];
    expect(keys).toHaveLength(3);
    expect(Math.max(...keys) / Math.min(...keys)).toBeLessThan(1.5);
  });

  it('reads, updates and removes each object on its own master; counts and queries span every shard', async () => {
    expect(await SpreadPost.count()).toBe(600);
    expect(await SpreadPost.count({ topic: 't2' })).toBe(100);
    const top = await SpreadPost.findBy({ topic: 't1' }, { orderBy: { score: 'desc' }, offset: 5, limit: 10 });
    const expected = rows
      .filter((row) => row.topic === 't1')
      .map((row) => row.score)
      .sort((a, b) => b - a)
      .slice(5, 15);
    expect(top.map((post) => post.score)).toEqual(expected);
    const [first] = await SpreadPost.findBy({ slug: 'post-42' });
    first.score = 1000;
    await first.save();
    expect((await SpreadPost.findBy({}, { orderBy: { score: 'desc' }, limit: 1 }))[0].slug).toBe('post-42');
    const found = await SpreadPost.findMany((await SpreadPost.findIds({ topic: 't3' }, { limit: 20 })) as string[]);
    expect(found.every((post) => post?.topic === 't3')).toBe(true);
    const removal = await SpreadPost.removeMany(await SpreadPost.findIds({ topic: 't5' }));
    expect(removal.removed).toHaveLength(100);
    expect(await SpreadPost.count()).toBe(500);
  });

  it('keeps a unique value unique across shards and masters', async () => {
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => SpreadPost.create({ topic: 't0', slug: 'contested' })));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results) if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(UniqueConstraintError);
    await expect(SpreadPost.create({ slug: 'post-7' })).rejects.toBeInstanceOf(UniqueConstraintError);
  });

  it('passes check() and the exact index comparison in every shard', async () => {
    const report = await SpreadPost.check();
    expect(report.violations.slice(0, 5)).toEqual([]);
    expect(report).toMatchObject({ ok: true, objects: 501 });
    await expectShardsConsistent(SpreadPost, cluster.raw, cluster.prefix);
  });
});

describe('bulk changes to a model sharded 8 ways on 3 masters', () => {
  it('sends each chunk as one call per shard, each to its own master, and keeps every shard consistent', async () => {
    const created = await SpreadNote.saveMany(Array.from({ length: 200 }, (_, i) => ({ topic: `a${i % 4}`, body: `b${i}` })));
    expect(created.ok).toBe(true);
    created.saved.forEach((note, i) => {
      note.topic = `z${i % 5}`;
      if (i % 2 === 0) note.body = `c${i}`;
    });
    const changed = await SpreadNote.saveMany(created.saved, { chunkSize: 50 });
    expect(changed.failed).toEqual([]);
    expect(await SpreadNote.count({ topic: 'z3' })).toBe(40);
    expect(await SpreadNote.count({ topic: 'a0' })).toBe(0);
    const stored = await SpreadNote.findMany(created.saved.map((note) => note.id));
    expect(stored.map((note) => note?.body)).toEqual(created.saved.map((_, i) => (i % 2 === 0 ? `c${i}` : `b${i}`)));
    await expectShardsConsistent(SpreadNote, cluster.raw, cluster.prefix);
  });

  it('removes in chunks, one call per shard each, every object with its entries on its own master', async () => {
    const before = await SpreadNote.count();
    const created = await SpreadNote.saveMany(Array.from({ length: 200 }, (_, i) => ({ topic: `r${i % 4}`, body: `r${i}` })));
    expect(created.ok).toBe(true);
    const ids = created.saved.map((note) => note.id!);
    const gone = ids.filter((_, i) => i % 5 !== 0);
    const removal = await SpreadNote.removeMany([...gone, '999999'], { chunkSize: 50 });
    expect(removal.failed).toEqual([]);
    expect(removal.removed).toEqual(gone);
    expect(removal.missing).toEqual(['999999']);
    expect(await SpreadNote.count()).toBe(before + 40);
    expect(await SpreadNote.findMany(gone.slice(0, 20))).toEqual(gone.slice(0, 20).map(() => null));
    expect(await SpreadNote.count({ topic: 'r0' })).toBe(10);
    await expectShardsConsistent(SpreadNote, cluster.raw, cluster.prefix);
  });
});

describe('claims of a model sharded 6 ways on 3 masters, with instances loaded before another one wrote', () => {
  @Model({ shards: 6 })
  class SpreadAccount extends BaseEntity {
    @Attr() @Unique({ caseInsensitive: true }) email?: string;
  }
  const claimOf = (email: string) => cluster.raw.get(claimKey(cluster.prefix, 'SpreadAccount', undefined, 'email', email));

  it('a value is free at once after its holder changes it or is removed through such an instance', async () => {
    const changed = await SpreadAccount.create({ email: 'first@x.io' });
    const other = await SpreadAccount.findOrFail(changed.id);
    other.email = 'second@x.io';
    await other.save();
    changed.email = 'third@x.io';
    await changed.save();
    expect(await claimOf('second@x.io')).toBeNull();
    await SpreadAccount.create({ email: 'second@x.io' });

    const removed = await SpreadAccount.create({ email: 'stale-remove@x.io' });
    const copy = await SpreadAccount.findOrFail(removed.id);
    copy.email = 'moved@x.io';
    await copy.save();
    await removed.remove();
    expect(await claimOf('moved@x.io')).toBeNull();
    await SpreadAccount.create({ email: 'moved@x.io' });
    expect((await SpreadAccount.check()).violations).toEqual([]);
  });

  it('saveMany writes an item taking the value such an instance gives up after it, as save() in the given order', async () => {
    const original = await SpreadAccount.create({ email: 'bulk-1@x.io' });
    const stale = await SpreadAccount.findOrFail(original.id);
    original.email = 'bulk-2@x.io';
    await original.save();
    stale.email = 'bulk-3@x.io'; // gives up bulk-2@x.io, which the object holds now
    const takers = await Promise.all(['a', 'b'].map((name) => SpreadAccount.create({ email: `taker-${name}@x.io` })));
    takers[0].email = 'BULK-2@x.io';
    takers[1].email = 'taker-c@x.io'; // meets no other item's values: goes at once
    expect((await SpreadAccount.saveMany([stale, ...takers])).failed).toEqual([]);
    expect(await claimOf('bulk-2@x.io')).toMatch(new RegExp(`^${takers[0].id} `));
    expect(await claimOf('bulk-3@x.io')).toMatch(new RegExp(`^${stale.id} `));
    expect(await claimOf('taker-c@x.io')).toMatch(new RegExp(`^${takers[1].id} `));
    expect(await claimOf('taker-a@x.io')).toBeNull();
    expect(await SpreadAccount.count({ email: 'bulk-2@x.io' })).toBe(1);
    expect((await SpreadAccount.check()).violations).toEqual([]);
  });

  it('repair() leaves the fresh claim of a writer between its claim and its write alone', async () => {
    const writer = await SpreadAccount.create({ email: 'inflight-old@x.io' });
    await cluster.raw.set(claimKey(cluster.prefix, 'SpreadAccount', undefined, 'email', 'inflight@x.io'), `${writer.id} ${Date.now()}`);
    expect((await SpreadAccount.repair()).found).toEqual([]);
    writer.email = 'inflight@x.io';
    await writer.save();
    await expect(SpreadAccount.create({ email: 'INFLIGHT@x.io' })).rejects.toBeInstanceOf(UniqueConstraintError);
    expect(await SpreadAccount.count({ email: 'inflight@x.io' })).toBe(1);
  });
});
