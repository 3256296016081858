import { Attr, BaseEntity, Index, Model, Unique } from '../../src';
import { claimKey } from '../../src/keys/claim-keys';
import { useCli } from '../cli/run-cli';
import { useTestRedis } from '../support/test-redis';
import { descriptorOf } from '../../src/model/model-registry';

/** The command-line tool on a sharded model: counts, stats, show and sweep per shard; check and repair with the claims. */

@Model({ shards: 4 })
class CliShardedUser extends BaseEntity {
  @Attr() @Unique() handle?: string;
  @Attr() @Index() country?: string;
}

const redis = useTestRedis();
const cli = useCli('sharded');
const p = () => ['--prefix', redis.prefix];

beforeAll(async () => {
  for (let i = 0; i < 12; i++) await CliShardedUser.create({ handle: `u${i}`, country: i % 2 ? 'NO' : 'SE' });
  await CliShardedUser.scope('acme').create({ handle: 'boss', country: 'DK' });
});

it('models and stats count every shard, and find the tenants of a sharded model', async () => {
  const { data } = await cli.json(['models', ...p()]);
  expect(data.models.find((m: { model: string }) => m.model === 'CliShardedUser')).toMatchObject({ objects: 13, tenants: ['acme'] });
  const stats = await cli.json(['stats', 'CliShardedUser', ...p()]);
  expect(stats.data.objects).toBe(13);
  const byName = Object.fromEntries(stats.data.indexes.map((i: { index: string }) => [i.index, i]));
  expect(byName['set:country']).toMatchObject({ entries: 13 });
});

it('show finds an object in its shard', async () => {
  const [user] = await CliShardedUser.findBy({ handle: 'u7' });
  const { code, data } = await cli.json(['show', 'CliShardedUser', user.id, ...p()]);
  expect(code).toBe(0);
  expect(Object.fromEntries(data.attributes.map((a: { property: string; value: unknown }) => [a.property, a.value]))).toEqual({
    handle: 'u7',
    country: 'NO',
  });
});

it('check reports a missing claim and a stale one; repair fixes both', async () => {
  await redis.raw.del(claimKey(redis.prefix, 'CliShardedUser', undefined, 'handle', 'u3'));
  await redis.raw.set(claimKey(redis.prefix, 'CliShardedUser', undefined, 'handle', 'ghost'), `424242 ${Date.now() - 60_000}`);
  const found = await cli.json(['check', 'CliShardedUser', ...p()]);
  expect(found.code).toBe(1);
  const kinds = found.data.scopes.flatMap((s: { violations: Array<{ kind: string }> }) => s.violations.map((v) => v.kind));
  expect(kinds.sort()).toEqual(['staleClaim', 'unclaimedUnique']);
  const repaired = await cli.json(['repair', 'CliShardedUser', ...p()]);
  expect(repaired.code).toBe(0);
  const again = await cli.json(['check', 'CliShardedUser', ...p()]);
  expect(again.code).toBe(0);
  expect(await CliShardedUser.check()).toMatchObject({ ok: true, objects: 12 });
});

it('reindex rebuilds the index keys of every shard (and Model.repair() restores lost entries in every shard)', async () => {
  const shards = descriptorOf(CliShardedUser).shardKeys(redis.prefix);
  await redis.raw.del(shards.map((keys) => keys.valueSet('country', 'NO')));
  expect((await cli.run(['check', 'CliShardedUser', ...p()])).code).toBe(1);
  const { code, data } = await cli.json(['reindex', 'CliShardedUser', ...p()]);
  expect(code).toBe(0);
  expect(data.scopes).toEqual([
    expect.objectContaining({ tenant: null, objects: 12, left: 0 }),
    expect.objectContaining({ tenant: 'acme', objects: 1, left: 0 }),
  ]);
  expect(await CliShardedUser.count({ country: 'NO' })).toBe(6);
  await redis.raw.del(shards.map((keys) => keys.valueSet('country', 'SE')));
  expect((await CliShardedUser.repair()).left).toEqual([]);
  expect(await CliShardedUser.count({ country: 'SE' })).toBe(6);
  expect(await CliShardedUser.check()).toMatchObject({ ok: true });
});
