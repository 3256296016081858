import type * as Library from '../../src';
import type * as ChangeModels from './support/schema-change-models';
import type * as IndexConsistency from '../support/index-consistency';
import { keysUnder, useOwnPrefixes } from '../support/test-redis';

/**
 * A model changed while it holds data: a cap or a ttl added, a unique index added over duplicates, an index
 * dropped from an expirable model. The data is written by the version before the change, then the version after
 * it connects to the same prefix. Each version lives in its own module registry (jest.isolateModules), like two
 * deployments of an application, each with its connection.
 */

type Version = keyof typeof ChangeModels.versions;
type Deployment = { lib: typeof Library; consistency: typeof IndexConsistency; Model: any };

const deployments: Deployment[] = [];
const { raw, freshPrefix } = useOwnPrefixes('change');

/** `onSchemaChange: 'warn'` leaves it to its default (console.warn); by default changes are not reported. */
async function deploy(
  version: Version,
  prefix: string,
  onSchemaChange: ((status: Library.SchemaStatus) => void) | 'warn' = () => undefined,
): Promise<Deployment> {
  let deployment!: Deployment;
  jest.isolateModules(() => {
    const lib = require('../../src') as typeof Library;
    const { versions } = require('./support/schema-change-models') as typeof ChangeModels;
    const Model = versions[version]();
    // The test-side checker too, so that it reads this registry's model definitions.
    const consistency = require('../support/index-consistency') as typeof IndexConsistency;
    deployment = { lib, consistency, Model };
  });
  deployments.push(deployment);
  await deployment.lib.connect({ url: process.env.REDIS_URL, prefix, ...(onSchemaChange === 'warn' ? {} : { onSchemaChange }) });
  return deployment;
}

afterAll(async () => {
  for (const { lib } of deployments) await lib.disconnect();
});

const kinds = (report: Library.CheckResult) => report.violations.map((v) => v.kind);

/** Lets the object's time come now, as if its TTL had run out: its hash expires, its `exp` entry is due. */
async function expireNow(prefix: string, tag: string, id: string): Promise<void> {
  await raw.pExpire(`${prefix}:{${tag}}:obj:${id}`, 1);
  await raw.zAdd(`${prefix}:{${tag}}:exp`, { score: Date.now(), value: id });
  await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('a cap added to a model holding data', () => {
  async function sixOld(): Promise<[string, Deployment]> {
    const prefix = freshPrefix();
    const before = await deploy('capBefore', prefix);
    for (let i = 1; i <= 6; i++) await before.Model.create({ score: i * 10, level: 'info', code: `c${i}` });
    await before.lib.disconnect();
    return [prefix, await deploy('capAfter', prefix)];
  }

  async function expectOnlyMemosMissing(prefix: string, after: Deployment): Promise<void> {
    expect((await after.consistency.checkIndexConsistency(after.Model, raw, prefix)).violations).toEqual([]);
    // the old objects still kept have no memo until reindex() writes them
    expect(kinds(await after.Model.check()).filter((kind) => kind !== 'memoMismatch')).toEqual([]);
    expect((await after.Model.reindex()).objects).toBe(await after.Model.count());
    expect((await after.Model.check()).violations).toEqual([]);
  }

  it('a create evicts the objects written before the cap with every index and unique entry', async () => {
    const [prefix, after] = await sixOld();
    await after.Model.create({ score: 100, level: 'warn', code: 'new' });
    expect((await after.Model.findBy({}, { orderBy: { score: 'desc' } })).map((o: { score: number }) => o.score)).toEqual([100, 60, 50]);
    expect(await raw.hGetAll(`${prefix}:{ChangeCap}:uniq:code`)).toEqual({ c5: '5', c6: '6', new: '7' });
    expect(await raw.sMembers(`${prefix}:{ChangeCap}:idx:level:info`)).toEqual(expect.arrayContaining(['5', '6']));
    expect(await raw.sCard(`${prefix}:{ChangeCap}:idx:level:info`)).toBe(2);
    await expectOnlyMemosMissing(prefix, after);
  });

  it('an update of the cap attribute, by save() or saveMany(), evicts them the same way', async () => {
    const [prefix, after] = await sixOld();
    const first = await after.Model.findOrFail('1');
    first.score = 65;
    await first.save(); // save.lua
    expect((await after.Model.findBy({}, { orderBy: { score: 'desc' } })).map((o: { id: string }) => o.id)).toEqual(['1', '6', '5']);
    await expectOnlyMemosMissing(prefix, after);

    const [otherPrefix, other] = await sixOld();
    const raised = await other.Model.findMany(['5', '6']);
    for (const object of raised) object.score += 100;
    await other.Model.saveMany(raised); // update-many.lua: the first change trims the cap
    expect((await other.Model.findBy({}, { orderBy: { score: 'desc' } })).map((o: { id: string }) => o.id)).toEqual(['6', '5', '4']);
    await expectOnlyMemosMissing(otherPrefix, other);
  });

  it('an increment of the counter the cap is by evicts them the same way', async () => {
    const prefix = freshPrefix();
    const before = await deploy('counterBefore', prefix);
    for (let i = 1; i <= 4; i++) await before.Model.create({ points: i, level: 'info' });
    await before.lib.disconnect();
    const after = await deploy('counterAfter', prefix);
    const first = await after.Model.findOrFail('1');
    await first.increment('points', 10); // increment.lua: the trim keeps 11 and 4
    expect((await after.Model.findBy({}, { orderBy: { points: 'desc' } })).map((o: { id: string }) => o.id)).toEqual(['1', '4']);
    expect(await raw.sMembers(`${prefix}:{ChangeCounter}:idx:level:info`)).toEqual(expect.arrayContaining(['1', '4']));
    expect(await raw.sCard(`${prefix}:{ChangeCounter}:idx:level:info`)).toBe(2);
    await expectOnlyMemosMissing(prefix, after);
  });
});

describe('reindex() after a ttl is added to a model holding data', () => {
  it('writes the memo of every object written before, so that check() is clean', async () => {
    const prefix = freshPrefix();
    const before = await deploy('ttlBefore', prefix);
    for (let i = 1; i <= 3; i++) await before.Model.create({ level: 'info', code: `c${i}` });
    await before.lib.disconnect();
    const after = await deploy('ttlAfter', prefix);
    await after.Model.create({ level: 'warn', code: 'c4' });
    expect(kinds(await after.Model.check())).toEqual(['memoMismatch', 'memoMismatch', 'memoMismatch']);
    const result = await after.Model.reindex();
    expect(result).toMatchObject({ added: [], dropped: [], objects: 4 });
    expect((await after.Model.check()).violations).toEqual([]);
  });
});

/**
 * The commands `run` sends under the prefix, from MONITOR (command names, lower case). A marker command sent after
 * `run` bounds the capture: Redis feeds MONITOR in the order it runs commands.
 */
async function commandsUnder(prefix: string, run: () => Promise<unknown>): Promise<string[]> {
  const monitor = raw.duplicate();
  await monitor.connect();
  const commands: string[] = [];
  const marker = `${prefix}:marker:${Math.random()}`;
  let sawMarker: () => void = () => undefined;
  const markerSeen = new Promise<void>((resolve) => (sawMarker = resolve));
  await monitor.monitor((line: string) => {
    if (line.includes(marker)) sawMarker();
    else if (line.includes(prefix)) commands.push(/\] "([^"]+)"/.exec(line)?.[1].toLowerCase() ?? line);
  });
  try {
    await run();
    await raw.exists(marker);
    await markerSeen;
  } finally {
    monitor.destroy();
  }
  return commands;
}

describe('reindex() of a model with a ttl or a cap walks its objects only when some may lack a memo', () => {
  /** reindex(), with the commands it sent: a walk reads `all` (ZRANGE) and sends one script call per object. */
  async function reindexed(prefix: string, deployment: Deployment): Promise<{ objects: number; walked: boolean; scripts: number }> {
    let result!: Library.ReindexResult;
    const commands = await commandsUnder(prefix, async () => {
      result = await deployment.Model.reindex();
    });
    // besides the walk's scripts, one expect-types.lua call per scope checks the types of `all`, `exp` and `seq`
    const scripts = commands.filter((command) => command === 'fcall' || command === 'fcall_ro').length - result.scopes;
    return { objects: result.objects, walked: commands.includes('zrange'), scripts };
  }
  const notWalked = { objects: 0, walked: false, scripts: 0 };

  it('a model with a ttl from its first use: no walk, every object keeps its memo from the start', async () => {
    const prefix = freshPrefix();
    const first = await deploy('ttlAfter', prefix);
    for (let i = 1; i <= 3; i++) await first.Model.create({ level: 'info', code: `c${i}` });
    expect(await first.Model.schemaStatus()).toMatchObject({ memosMissing: false, needsReindex: false });
    expect(await reindexed(prefix, first)).toEqual(notWalked);
    expect((await first.Model.check()).violations).toEqual([]);
    await first.lib.disconnect();
  });

  it('a ttl added: walked once; not again, nor after the ttl changes; again after the ttl was away, or an index was added', async () => {
    const prefix = freshPrefix();
    const before = await deploy('ttlBefore', prefix);
    for (let i = 1; i <= 3; i++) await before.Model.create({ level: 'info', code: `c${i}` });
    await before.lib.disconnect();

    const after = await deploy('ttlAfter', prefix);
    expect(await after.Model.schemaStatus()).toMatchObject({ added: [], dropped: [], memosMissing: true, needsReindex: true });
    expect(await reindexed(prefix, after)).toEqual({ objects: 3, walked: true, scripts: 3 });
    expect((await after.Model.check()).violations).toEqual([]);
    expect(await after.Model.schemaStatus()).toMatchObject({ memosMissing: false, needsReindex: false });
    expect(await reindexed(prefix, after)).toEqual(notWalked);
    await after.lib.disconnect();

    // another ttl: the objects keep their memos, nothing to walk
    const longer = await deploy('ttlLonger', prefix);
    expect(await reindexed(prefix, longer)).toEqual(notWalked);
    await longer.lib.disconnect();

    // the ttl dropped: objects are written without a memo; once it is back, they are walked again
    const without = await deploy('ttlBefore', prefix);
    await without.Model.create({ level: 'warn', code: 'c4' });
    await without.lib.disconnect();
    const back = await deploy('ttlAfter', prefix);
    expect(kinds(await back.Model.check())).toEqual(['memoMismatch']);
    expect(await back.Model.schemaStatus()).toMatchObject({ memosMissing: true, needsReindex: true });
    expect(await reindexed(prefix, back)).toEqual({ objects: 4, walked: true, scripts: 4 });
    expect((await back.Model.check()).violations).toEqual([]);
    expect(await reindexed(prefix, back)).toEqual(notWalked);
    await back.lib.disconnect();

    // an index added: walked, every object's entries and memo written
    const indexed = await deploy('ttlIndexed', prefix);
    await indexed.Model.create({ level: 'warn', code: 'c5', rank: 5 });
    expect(await reindexed(prefix, indexed)).toMatchObject({ objects: 5, walked: true, scripts: 5 });
    expect((await indexed.Model.check()).violations).toEqual([]);
    expect(await reindexed(prefix, indexed)).toEqual(notWalked);
  });

  it('the application is told when objects may lack memos (default: one console.warn line)', async () => {
    const prefix = freshPrefix();
    const before = await deploy('ttlBefore', prefix);
    await before.Model.create({ level: 'info', code: 'c1' });
    await before.lib.disconnect();
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const after = await deploy('ttlAfter', prefix, 'warn');
      await after.Model.count();
      expect(warn.mock.calls).toEqual([
        [
          'redis-record: model ChangeTtl may hold objects without the memo its ttl or cap needs (written before it had one): run ChangeTtl.reindex()',
        ],
      ]);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('reindex() after a unique index is added to a sharded model', () => {
  it('claims each value across the shards for the object first in id order: a new object cannot take it', async () => {
    const prefix = freshPrefix();
    const before = await deploy('shardedUniqueBefore', prefix);
    // 12 objects spread over the 4 shards; in id order, each of v0, v1, v2 is held by every third object
    const objects: Array<{ id: string; code?: string; save(): Promise<unknown> }> = [];
    for (let i = 0; i < 12; i++) objects.push(await before.Model.create({}));
    objects.sort((a, b) => Number(a.id) - Number(b.id));
    for (const [rank, object] of objects.entries()) {
      object.code = `v${rank % 3}`;
      await object.save();
    }
    await before.lib.disconnect();

    const after = await deploy('shardedUniqueAfter', prefix);
    expect(await after.Model.reindex()).toMatchObject({ added: ['unique:code'], objects: 12 });
    const { claimKey } = require('../../src/keys/claim-keys') as typeof import('../../src/keys/claim-keys');
    const holders = await Promise.all(
      ['v0', 'v1', 'v2'].map(
        async (code) => (await raw.get(claimKey(prefix, 'ChangeShardedUnique', undefined, 'code', code)))?.split(' ')[0],
      ),
    );
    expect(holders).toEqual(objects.slice(0, 3).map((object) => object.id));
    await expect(after.Model.create({ code: 'v1' })).rejects.toBeInstanceOf(after.lib.UniqueConstraintError);
    // the later holders are reported, each once, as holding a value the first one holds
    const report = await after.Model.check();
    expect(report.violations.map((v: Library.Violation) => [v.kind, v.id]).sort()).toEqual(
      objects
        .slice(3)
        .map((object) => ['duplicateUnique', object.id])
        .sort(),
    );
  });
});

describe('reindex() after a unique index is dropped from a sharded model', () => {
  it('deletes its claims: once the index is back, each value is claimed for the object holding it then', async () => {
    const prefix = freshPrefix();
    const claimKeys = async () => (await keysUnder(raw, prefix)).filter((key) => key.endsWith(':claim'));
    const unique = await deploy('shardedUniqueAfter', prefix);
    const [first, second] = [await unique.Model.create({ code: 'a' }), await unique.Model.create({ code: 'b' })];
    expect(await claimKeys()).toHaveLength(2);
    await unique.lib.disconnect();

    const plain = await deploy('shardedUniqueBefore', prefix);
    // the two shards' uniq:code hashes and the two claims
    expect(await plain.Model.reindex()).toMatchObject({ dropped: ['unique:code'], keysDeleted: 4 });
    expect(await claimKeys()).toEqual([]);
    // the values change hands while nothing claims them
    const [one, two] = [await plain.Model.findOrFail(first.id), await plain.Model.findOrFail(second.id)];
    one.code = 'c';
    two.code = 'a';
    await one.save();
    await two.save();
    await plain.lib.disconnect();

    const back = await deploy('shardedUniqueAfter', prefix);
    await back.Model.reindex();
    const { claimKey } = require('../../src/keys/claim-keys') as typeof import('../../src/keys/claim-keys');
    const holderOf = async (code: string) =>
      (await raw.get(claimKey(prefix, 'ChangeShardedUnique', undefined, 'code', code)))?.split(' ')[0];
    expect([await holderOf('a'), await holderOf('c'), await holderOf('b')]).toEqual([second.id, first.id, undefined]);
    expect((await back.Model.check()).violations).toEqual([]);
    await expect(back.Model.create({ code: 'b' })).resolves.toBeDefined();
  });
});

describe('reindex() after indexes change in an expirable model without a ttl', () => {
  it('rewrites the memo of every object with a time to live, so that its sweep removes exactly its entries', async () => {
    const prefix = freshPrefix();
    const before = await deploy('expirableBefore', prefix);
    const red = await before.Model.create({ level: 'info', colour: 'red' });
    await before.Model.create({ level: 'info', colour: 'blue' });
    const bare = await before.Model.create({ code: 'x' }); // in the nil sets of level and colour only
    await red.expire(3600);
    await bare.expire(3600);
    expect((await before.Model.check()).violations).toEqual([]);
    await before.lib.disconnect();

    const after = await deploy('expirableAfter', prefix);
    const result = await after.Model.reindex();
    expect(result).toMatchObject({ added: ['set:code'], dropped: ['set:colour'], objects: 3 });
    expect((await after.Model.check()).violations).toEqual([]);
    expect(await raw.hGetAll(`${prefix}:{ChangeExpirable}:memo:${bare.id}`)).toEqual({
      [`S${prefix}:{ChangeExpirable}:idx:code:x`]: bare.id,
      [`S${prefix}:{ChangeExpirable}:nil:level`]: bare.id,
    });

    await expireNow(prefix, 'ChangeExpirable', red.id);
    await expireNow(prefix, 'ChangeExpirable', bare.id);
    expect(await after.Model.sweep()).toBe(2);
    expect((await after.Model.check()).violations).toEqual([]);
    expect((await after.consistency.checkIndexConsistency(after.Model, raw, prefix)).violations).toEqual([]);
  });
});

describe('reindex() after a unique index is added over data holding duplicates', () => {
  it('keeps each value for the object written first (300 objects, past the size where ZSCAN order is not id order)', async () => {
    const prefix = freshPrefix();
    const before = await deploy('uniqueBefore', prefix);
    // objects k and k + 150 share a value: k was written first
    await before.Model.saveMany(Array.from({ length: 300 }, (_, i) => before.Model.build({ code: `v${(i % 150) + 1}` })));
    await before.lib.disconnect();

    const after = await deploy('uniqueAfter', prefix);
    const result = await after.Model.reindex();
    expect(result).toMatchObject({ added: ['unique:code'], objects: 300 });
    const owners = await raw.hGetAll(`${prefix}:{ChangeUnique}:uniq:code`);
    expect(Object.keys(owners)).toHaveLength(150);
    expect(Object.entries(owners).filter(([value, id]) => value !== `v${id}`)).toEqual([]);
    const report = await after.Model.check();
    expect(report.violations).toHaveLength(150);
    expect(new Set(kinds(report))).toEqual(new Set(['duplicateUnique']));
  });

  it('with uuids, keeps each value for the object first in id order', async () => {
    const prefix = freshPrefix();
    const before = await deploy('uuidUniqueBefore', prefix);
    const objects = Array.from({ length: 300 }, (_, i) => before.Model.build({ code: `v${i % 150}` }));
    await before.Model.saveMany(objects);
    await before.lib.disconnect();

    const after = await deploy('uuidUniqueAfter', prefix);
    expect((await after.Model.reindex()).objects).toBe(300);
    const first = new Map<string, string>();
    for (const { id, code } of objects as Array<{ id: string; code: string }>) {
      const held = first.get(code);
      if (held === undefined || Buffer.compare(Buffer.from(id), Buffer.from(held)) < 0) first.set(code, id);
    }
    expect(await raw.hGetAll(`${prefix}:{ChangeUuidUnique}:uniq:code`)).toEqual(Object.fromEntries(first));
  });
});

describe('a model moved to other keys (its group changed) while it holds data', () => {
  it('keeps the stored definition, says so, and reindex() refuses until the old keys list no object', async () => {
    const prefix = freshPrefix();
    const before = await deploy('groupBefore', prefix);
    await before.Model.create({ level: 'info' });
    await before.Model.scope('acme').create({ level: 'warn' });
    await before.lib.disconnect();

    const changes: Library.SchemaStatus[] = [];
    const after = await deploy('groupAfter', prefix, (status) => changes.push(status));
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ added: [], dropped: [], needsReindex: false, moved: ['group: none -> changes'] });
    // the definition the tools (and the command-line tool) run from still names the keys holding the data
    expect(JSON.parse((await raw.hGet(`${prefix}#models`, 'ChangeGroup'))!).group).toBeNull();
    expect(await after.Model.count()).toBe(0);
    await expect(after.Model.reindex()).rejects.toThrow(after.lib.SchemaError);
    await expect(after.Model.reindex()).rejects.toThrow(/group: none -> changes\): 2 objects are stored under the old keys/);
    expect(JSON.parse((await raw.hGet(`${prefix}#models`, 'ChangeGroup'))!).group).toBeNull();

    // the old objects deleted: the new keys' data is the model's as it is now
    await after.Model.create({ level: 'debug' });
    await raw.del([`${prefix}:{ChangeGroup}:all`, `${prefix}:{acme/ChangeGroup}:all`]);
    expect(await after.Model.reindex()).toMatchObject({ added: [], dropped: [], keysDeleted: 0 });
    expect(JSON.parse((await raw.hGet(`${prefix}#models`, 'ChangeGroup'))!).group).toBe('changes');
    expect((await after.Model.schemaStatus()).moved).toEqual([]);
    expect((await after.Model.check()).violations).toEqual([]);
  });
});

describe('indexes dropped by one version and declared again by the next (or by a rollback)', () => {
  it('are named stale in the stored definition, reported, and rebuilt whole by reindex()', async () => {
    const prefix = freshPrefix();
    const before = await deploy('staleBefore', prefix);
    await before.Model.create({ colour: 'red', code: 'a' });
    await before.Model.create({ colour: 'red', code: 'b' });
    await before.lib.disconnect();

    // the version without the indexes writes: its saves and removals leave their entries as they were
    const without = await deploy('staleAfter', prefix);
    const first = await without.Model.findOrFail('1');
    first.colour = 'blue';
    first.code = 'z';
    await first.save();
    await (await without.Model.findOrFail('2')).remove();
    await without.Model.create({ colour: 'red', code: 'b' });
    await without.lib.disconnect();
    expect(JSON.parse((await raw.hGet(`${prefix}#models`, 'ChangeStale'))!).stale).toEqual(['set:colour', 'unique:code']);

    const changes: Library.SchemaStatus[] = [];
    const again = await deploy('staleBefore', prefix, (status) => changes.push(status));
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ added: [], dropped: [], stale: ['set:colour', 'unique:code'], needsReindex: true });
    const result = await again.Model.reindex();
    expect(result).toMatchObject({ added: [], dropped: [], rebuilt: ['set:colour', 'unique:code'], objects: 2 });
    expect((await again.Model.findBy({ colour: 'red' })).map((o: { id: string }) => o.id)).toEqual(['3']);
    expect((await again.Model.findBy({ colour: 'blue' })).map((o: { id: string }) => o.id)).toEqual(['1']);
    expect(await raw.hGetAll(`${prefix}:{ChangeStale}:uniq:code`)).toEqual({ z: '1', b: '3' });
    expect((await again.Model.create({ code: 'a' })).id).toBe('4'); // no object holds 'a' any more
    expect((await again.Model.check()).violations).toEqual([]);
    expect((await again.Model.schemaStatus()).needsReindex).toBe(false);
    expect(JSON.parse((await raw.hGet(`${prefix}#models`, 'ChangeStale'))!).stale).toBeUndefined();
  });
});
