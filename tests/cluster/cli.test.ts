import calculateSlot from 'cluster-key-slot';
import { Attr, BaseEntity, Index, Model, SortableString, Unique } from '../../src';
import { useCli } from '../cli/run-cli';
import { clusterKeysUnder, useTestCluster } from '../support/test-cluster';

/**
 * The command-line tool against a Redis Cluster (--cluster host:port,...): it scans every master, so models
 * and tenants on any node are seen, and check, repair, reindex and sweep work on each model's node.
 */

@Model()
class ClUser extends BaseEntity {
  @Attr() @Unique() email?: string;
  @Attr() @Index() country?: string;
  @Attr() @Index({ sortable: true }) name?: SortableString;
}

@Model({ group: 'shop' })
class ClItem extends BaseEntity {
  @Attr() @Index() color?: string;
}

@Model({ ttl: 1 })
class ClLog extends BaseEntity {
  @Attr() @Index() level?: string;
}

const cluster = useTestCluster();
const cli = useCli(cluster.prefix);
const nodes = () => cluster.rootNodes.map((node) => node.url.replace('redis://', '')).join(',');
const run = (args: string[]) => cli.run([...args, '--cluster', nodes(), '--prefix', cluster.prefix], { url: null });
const json = (args: string[]) => cli.json([...args, '--cluster', nodes(), '--prefix', cluster.prefix], { url: null });

beforeAll(async () => {
  await ClUser.create({ email: 'a@x.io', country: 'NO', name: 'Ann' as SortableString });
  await ClUser.create({ email: 'b@x.io', country: 'SE', name: 'Bob' as SortableString });
  await ClUser.scope('acme').create({ email: 'c@acme.io', country: 'DK' });
  await ClUser.scope('zeta').create({ email: 'd@zeta.io', country: 'FI' });
  await ClItem.create({ color: 'red' });
  await ClLog.create({ level: 'info' });
});

it('lists every model with the tenants found on any master', async () => {
  const { code, data } = await json(['models']);
  expect(code).toBe(0);
  const user = data.models.find((m: { model: string }) => m.model === 'ClUser');
  expect(user).toMatchObject({ objects: 4, tenants: ['acme', 'zeta'] });
  expect(data.models.find((m: { model: string }) => m.model === 'ClItem')).toMatchObject({ objects: 1, group: 'shop' });
});

it('shows an object and its index entries, and gives stats', async () => {
  const shown = await json(['show', 'ClUser', '1']);
  expect(shown.code).toBe(0);
  expect(shown.data.entries.every((e: { present: boolean }) => e.present)).toBe(true);
  const stats = await json(['stats', 'ClUser']);
  expect(stats.code).toBe(0);
  expect(stats.data.objects).toBe(4);
  expect(stats.data.indexBytes).toBeGreaterThan(0);
});

it('checks, finds damage made by hand, repairs it and reindexes', async () => {
  expect((await run(['check'])).code).toBe(0);
  // A stray index entry and a missing one, on the master holding {ClUser}.
  await cluster.raw.sAdd(`${cluster.prefix}:{ClUser}:idx:country:XX`, '1');
  await cluster.raw.sRem(`${cluster.prefix}:{ClUser}:idx:country:SE`, '2');
  const damaged = await json(['check', 'ClUser']);
  expect(damaged.code).toBe(1);
  expect(damaged.data.violations).toBeGreaterThanOrEqual(2);
  const kinds = damaged.data.scopes.flatMap((scope: { violations: Array<{ kind: string }> }) => scope.violations.map((v) => v.kind));
  expect(kinds).toEqual(expect.arrayContaining(['missingEntry', 'wrongEntry']));
  expect((await run(['repair', 'ClUser'])).code).toBe(0);
  expect((await run(['check'])).code).toBe(0);
  expect(await ClUser.findIds({ country: 'SE' })).toEqual(['2']);
  const reindexed = await run(['reindex', 'ClUser']);
  expect(reindexed.code).toBe(0);
  expect((await run(['check', 'ClUser'])).code).toBe(0);
});

it('sweeps expired objects on their node', async () => {
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const { code, data } = await json(['sweep', 'ClLog']);
  expect(code).toBe(0);
  expect(data.swept).toBe(1);
  expect((await clusterKeysUnder(cluster.cluster, cluster.prefix)).filter((k) => k.includes('{ClLog}:obj:'))).toEqual([]);
});

it('reports usage errors and an unreachable cluster with exit code 2, the password masked', async () => {
  const both = await cli.run(['models', '--cluster', nodes(), '--url', 'redis://127.0.0.1:1']);
  expect(both.code).toBe(2);
  expect(both.stderr).toMatch(/either --url or --cluster/);
  const bad = await cli.run(['models', '--cluster', 'nohost'], { url: null });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/host:port/);
  const down = await cli.run(['models', '--cluster', 'redis://:pw-S3cret@127.0.0.1:1'], { url: null });
  expect(down.code).toBe(2);
  expect(down.stderr).toMatch(/cannot connect to the Redis Cluster/);
  expect(down.stderr).not.toContain('pw-S3cret');
});

it('refuses a prefix with no stored model, listing the prefixes found on every master', async () => {
  // registries of other prefixes, one on each master
  const byMaster = new Map<string, string>();
  for (let i = 0; byMaster.size < cluster.cluster.masters.length && i < 1000; i++) {
    const prefix = `${cluster.prefix}-p${i}`;
    const master = cluster.cluster.getSlotMaster(calculateSlot(`${prefix}#models`));
    if (!byMaster.has(master.address)) byMaster.set(master.address, prefix);
  }
  const others = [...byMaster.values()];
  expect(others).toHaveLength(cluster.cluster.masters.length);
  await Promise.all(others.map((prefix) => cluster.cluster.hSet(`${prefix}#models`, 'Gone', '{}')));
  try {
    const { code, stdout, stderr } = await cli.run(['check', '--cluster', nodes(), '--prefix', `${cluster.prefix}-typo`], { url: null });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const listed = /prefixes with stored models: (.+)\)$/m.exec(stderr)?.[1].split(', ');
    expect(listed).toEqual(expect.arrayContaining([cluster.prefix, ...others]));
  } finally {
    await Promise.all(others.map((prefix) => cluster.cluster.del(`${prefix}#models`)));
  }
});
