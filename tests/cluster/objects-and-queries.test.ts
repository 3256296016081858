import {
  Attr,
  BaseEntity,
  Index,
  Model,
  NotFoundError,
  SortableString,
  Unique,
  UniqueConstraintError,
  connect,
  disconnect,
} from '../../src';
import { ConnectionError, RedisRecordError } from '../../src/errors/errors';
import { expectIndexesConsistent } from '../support/index-consistency';
import { socketsOpenedBy } from '../support/opened-sockets';
import { clusterKeysUnder, keysPerMaster, useTestCluster } from '../support/test-cluster';

/**
 * The model API on a Redis Cluster (3 masters, 3 replicas): create, load, update, delete, indexes, uniques and
 * queries behave as on one server; each model's keys sit on the master of its hash tag's slot, and the models
 * together spread over the masters.
 */

@Model()
class CoUser extends BaseEntity {
  @Attr() @Unique({ caseInsensitive: true }) email?: string;
  @Attr() @Index() country?: string;
  @Attr() @Index() age?: number;
  @Attr() @Index({ sortable: true }) name?: SortableString;
  @Attr() team?: string;
  @Attr() @Index({ scope: 'team' }) joined?: Date;
}

// Models whose names hash to slots of different masters: the data is spread over the cluster.
@Model()
class CoAlpha extends BaseEntity {
  @Attr() @Index() n?: number;
}
@Model()
class CoBravo extends BaseEntity {
  @Attr() @Index() n?: number;
}
@Model()
class CoCharlie extends BaseEntity {
  @Attr() @Index() n?: number;
}
@Model()
class CoDelta extends BaseEntity {
  @Attr() @Index() n?: number;
}
@Model()
class CoEcho extends BaseEntity {
  @Attr() @Index() n?: number;
}
@Model()
class CoFoxtrot extends BaseEntity {
  @Attr() @Index() n?: number;
}

const cluster = useTestCluster();
const ids = (list: Array<{ id: string }>) => list.map((o) => o.id);

beforeAll(async () => {
  const countries = ['NO', 'SE', 'DK'];
  for (let i = 1; i <= 30; i++) {
    await CoUser.create({
      email: `User${i}@X.io`,
      country: countries[i % 3],
      age: 20 + (i % 10),
      name: `u${String(i).padStart(2, '0')}` as SortableString,
      team: `t${i % 2}`,
      joined: new Date(i * 1000),
    });
  }
});

describe('connecting to a cluster', () => {
  it('fails with a ConnectionError, password redacted, when no root node answers', async () => {
    // no retrying in the background: the connect settles with the error (a hang fails the test on its timeout)
    const error = await connect({
      cluster: { rootNodes: [{ url: 'redis://:s3cret-pw@127.0.0.1:1' }], defaults: { password: 's3cret-pw' } },
      prefix: 'never',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/cannot reach the Redis Cluster/);
    expect((error as Error).message).not.toContain('s3cret-pw');
    await connect({ cluster: { rootNodes: cluster.rootNodes.map((n) => ({ url: n.url })) }, prefix: cluster.prefix });
  });

  it('refuses url and cluster together, and an empty rootNodes', async () => {
    await expect(connect({ url: 'redis://127.0.0.1:1', cluster: { rootNodes: [{ url: 'redis://127.0.0.1:1' }] } })).rejects.toThrow(
      RedisRecordError,
    );
    await expect(connect({ cluster: { rootNodes: [] } })).rejects.toThrow(/rootNodes must list at least one node/);
    await connect({ cluster: { rootNodes: [...cluster.rootNodes] }, prefix: cluster.prefix });
  });

  it("gives every node's socket a 1 MiB write buffer, or the size given in connect's socket options", async () => {
    const rootNodes = cluster.rootNodes.map((n) => ({ url: n.url }));
    const opened = await socketsOpenedBy(() => connect({ cluster: { rootNodes }, prefix: cluster.prefix }));
    expect(opened.length).toBeGreaterThanOrEqual(3); // discovery, then every master (scripts are loaded on each)
    expect(new Set(opened.map((socket) => socket.writableHighWaterMark))).toEqual(new Set([1024 * 1024]));
    expect((await CoUser.findOrFail('3')).email).toBe('User3@X.io');
    const given = await socketsOpenedBy(() =>
      connect({ cluster: { rootNodes }, socket: { writableHighWaterMark: 64 * 1024 }, prefix: cluster.prefix }),
    );
    expect(given.length).toBeGreaterThanOrEqual(3);
    expect(new Set(given.map((socket) => socket.writableHighWaterMark))).toEqual(new Set([64 * 1024]));
    expect((await CoUser.findOrFail('3')).email).toBe('User3@X.io');
  });

  it('accepts a node-redis cluster client passed in, and leaves it open on disconnect', async () => {
    await connect({ client: cluster.cluster, prefix: cluster.prefix });
    expect((await CoUser.findOrFail('3')).email).toBe('User3@X.io');
    await disconnect();
    expect(cluster.cluster.isOpen).toBe(true);
    await connect({ cluster: { rootNodes: [...cluster.rootNodes] }, prefix: cluster.prefix });
  });

  it('loads the function library on every master at connect', async () => {
    const { functionLibrary } = await import('../../src/store/function-library');
    const { name, functions } = functionLibrary();
    for (const master of cluster.cluster.masters) {
      const node = await cluster.cluster.nodeClient(master);
      const listed = (await node.sendCommand(['FUNCTION', 'LIST', 'LIBRARYNAME', name])) as unknown[];
      expect(listed).toHaveLength(1);
      expect(JSON.stringify(listed)).toContain([...functions.values()][0].name);
    }
  });
});

describe('objects', () => {
  it('creates, loads, updates and deletes', async () => {
    const user = await CoUser.create({ email: 'new@x.io', country: 'FI', age: 44 });
    expect(user.id).toBe('31');
    const loaded = await CoUser.findOrFail(user.id);
    expect(loaded.toJSON()).toEqual({ id: '31', email: 'new@x.io', country: 'FI', age: 44 });
    loaded.age = 45;
    loaded.country = 'IS';
    await loaded.save();
    expect(await CoUser.findIds({ country: 'IS' })).toEqual(['31']);
    expect(await CoUser.findIds({ country: 'FI' })).toEqual([]);
    expect((await CoUser.findMany(['1', '31', '99'])).map((u) => u?.age ?? null)).toEqual([21, 45, null]);
    await loaded.remove();
    expect(await CoUser.find('31')).toBeNull();
    expect(await CoUser.exists('31')).toBe(false);
    await expect(CoUser.findOrFail('31')).rejects.toThrow(NotFoundError);
    expect(await CoUser.count()).toBe(30);
  });

  it('keeps every key of a model on the master of its hash tag', async () => {
    const keys = (await clusterKeysUnder(cluster.cluster, cluster.prefix)).filter((k) => k.includes('{CoUser}'));
    expect(keys.length).toBeGreaterThan(30);
    const slots = new Set(await Promise.all(keys.map((k) => cluster.cluster.sendCommand(k, true, ['CLUSTER', 'KEYSLOT', k]))));
    expect(slots.size).toBe(1);
  });

  it('spreads models over the masters', async () => {
    const models = [CoAlpha, CoBravo, CoCharlie, CoDelta, CoEcho, CoFoxtrot];
    for (const model of models) await model.create({ n: 1 });
    const perMaster = await keysPerMaster(cluster.cluster, cluster.prefix);
    const holding = [...perMaster.values()].filter((n) => n > 0);
    expect(holding.length).toBeGreaterThanOrEqual(2);
    for (const model of models) expect(await model.count({ n: 1 })).toBe(1);
  });

  it('enforces uniques (case-insensitive) and writes nothing on a clash', async () => {
    const before = await clusterKeysUnder(cluster.cluster, cluster.prefix);
    await expect(CoUser.create({ email: 'user5@x.IO', country: 'NO' })).rejects.toThrow(UniqueConstraintError);
    expect(await clusterKeysUnder(cluster.cluster, cluster.prefix)).toEqual(before);
    expect((await CoUser.findOneBy({ email: 'USER5@x.io' }))?.id).toBe('5');
  });
});

describe('bulk operations', () => {
  it('saves, changes and removes many objects, pipelined, on the master of the model', async () => {
    const result = await CoAlpha.saveMany(Array.from({ length: 50 }, (_, i) => CoAlpha.build({ n: 100 + i })));
    expect(result.ok).toBe(true);
    expect(result.saved).toHaveLength(50);
    expect(await CoAlpha.count({ n: { gte: 100 } })).toBe(50);
    // changes in chunks (update-many.lua), on the same master
    result.saved.forEach((o, i) => (o.n = 200 + i));
    const changed = await CoAlpha.saveMany(result.saved, { chunkSize: 20 });
    expect(changed.ok).toBe(true);
    expect(await CoAlpha.count({ n: { gte: 200 } })).toBe(50);
    expect((await CoAlpha.find(result.saved[49].id))?.n).toBe(249);
    await expectIndexesConsistent(CoAlpha, cluster.raw, cluster.prefix);
    const removed = await CoAlpha.removeMany([...result.saved.map((o) => o.id), '9999']);
    expect(removed.removed).toHaveLength(50);
    expect(removed.missing).toEqual(['9999']);
    expect(await CoAlpha.count({ n: { gte: 100 } })).toBe(0);
    await expectIndexesConsistent(CoAlpha, cluster.raw, cluster.prefix);
  });
});

describe('queries', () => {
  it('answers equality, ranges, OR, order and paging inside Redis', async () => {
    expect(ids(await CoUser.findBy({ country: 'SE' }, { limit: 4 }))).toEqual(['1', '4', '7', '10']);
    expect(await CoUser.count({ country: 'NO', age: { gte: 25 } })).toBe(5);
    expect(ids(await CoUser.findBy({ OR: [{ age: 20 }, { country: 'DK', age: { lt: 23 } }] }))).toEqual(['2', '10', '11', '20', '30']);
    expect(ids(await CoUser.findBy({}, { orderBy: { age: 'desc' }, limit: 3 }))).toEqual(['29', '19', '9']);
    expect(ids(await CoUser.findBy({ name: { startsWith: 'u2' } }, { orderBy: { name: 'desc' }, limit: 2 }))).toEqual(['29', '28']);
    expect(ids(await CoUser.findBy({ team: 't1' }, { orderBy: { joined: 'desc' }, limit: 3 }))).toEqual(['29', '27', '25']);
    const seen: string[] = [];
    for await (const user of CoUser.iterate({ country: 'DK' }, { batchSize: 4 })) seen.push(user.id);
    expect(seen).toEqual(['2', '5', '8', '11', '14', '17', '20', '23', '26', '29']);
  });

  it('leaves the indexes exactly consistent with the objects, and no temporary key', async () => {
    const report = await expectIndexesConsistent(CoUser, cluster.raw, cluster.prefix);
    expect(report.objects).toBe(30);
    expect((await clusterKeysUnder(cluster.cluster, cluster.prefix)).filter((k) => k.includes(':tmp:'))).toEqual([]);
    expect((await CoUser.check()).violations).toEqual([]);
  });
});
