import { Attr, BaseEntity, Index, Model, Unique } from '../../src';
import { ModelScope, modelScope, storedDefinitions } from '../../src/admin';
import { repairObject } from '../../src/integrity/apply-fix';
import { shardScopes } from '../../src/integrity/model-scope';
import { useTestRedis } from '../support/test-redis';

/**
 * Ids repair() puts back in `all` or takes out of it: a hash listed again raises the sequence in the same step
 * (invariant 5), an id past 2^53 - 1 is no sequence id, and an id that is no valid id is taken out of `all`
 * without its key being touched. check() is clean after one repair(), and no create takes an id repair kept.
 */

@Model()
class RlNote extends BaseEntity {
  @Attr() @Index() topic?: string;
}

@Model({ shards: 3 })
class RlShardNote extends BaseEntity {
  @Attr() @Index() topic?: string;
}

@Model()
class RlHuge extends BaseEntity {
  @Attr() @Index() topic?: string;
}

@Model()
class RlPost extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr() @Unique() slug?: string;
}

const redis = useTestRedis();
const base = (name: string) => `${redis.prefix}:{${name}}`;

async function scopeOf(name: string): Promise<ModelScope> {
  const definitions = await storedDefinitions(redis.raw, redis.prefix);
  return modelScope(redis.raw, redis.prefix, definitions.get(name)!, (other) => definitions.get(other));
}

describe('an orphan hash listed again raises the sequence in the same step', () => {
  it('a sequence model: check is clean after one repair, and the next creates do not take its id', async () => {
    for (let i = 1; i <= 3; i++) await RlNote.create({ topic: 'a' });
    await redis.raw.hSet(`${base('RlNote')}:obj:5`, { '#id': '5', topic: 'restored' });
    const found = await RlNote.check();
    expect(found.violations.map((v) => [v.kind, v.id])).toEqual([['orphanHash', '5']]);
    const repaired = await RlNote.repair();
    expect(repaired.fixed).toEqual(['object 5: relisted']);
    expect(repaired.left).toEqual([]);
    expect(await redis.raw.get(`${base('RlNote')}:seq`)).toBe('5');
    expect((await RlNote.check()).violations).toEqual([]);
    const created = [await RlNote.create({ topic: 'new' }), await RlNote.create({ topic: 'new' })];
    expect(created.map((note) => note.id)).toEqual(['6', '7']);
    expect(await redis.raw.hGetAll(`${base('RlNote')}:obj:5`)).toEqual({ '#id': '5', topic: 'restored' });
    expect((await RlNote.findBy({ topic: 'restored' })).map((note) => note.id)).toEqual(['5']);
    expect((await RlNote.check()).violations).toEqual([]);
  });

  it('a sequence ahead of the id is left as it is (never lowered)', async () => {
    await redis.raw.zRem(`${base('RlNote')}:all`, '2');
    const repaired = await RlNote.repair();
    expect(repaired.fixed).toContain('object 2: relisted');
    expect(await redis.raw.get(`${base('RlNote')}:seq`)).toBe('7');
    expect((await RlNote.check()).violations).toEqual([]);
  });

  it("a sharded model: the shard's sequence is raised to the id's draw in that shard", async () => {
    for (let i = 0; i < 3; i++) await RlShardNote.create({ topic: 'a' }); // one object per shard: ids 1, 2, 3
    const shards = shardScopes(await scopeOf('RlShardNote'));
    // id 10 is the 4th draw of shard 0 (its k-th id is (k - 1) * 3 + 1)
    await redis.raw.hSet(shards[0].keys.object('10'), { '#id': '10', topic: 'restored' });
    const found = await RlShardNote.check();
    expect(found.violations.map((v) => [v.kind, v.id])).toEqual([['orphanHash', '10']]);
    const repaired = await RlShardNote.repair();
    expect(repaired.fixed).toEqual(['object 10: relisted']);
    expect(await redis.raw.get(shards[0].keys.sequence)).toBe('4');
    expect((await RlShardNote.check()).violations).toEqual([]);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await RlShardNote.create({ topic: 'new' })).id);
    expect(ids).not.toContain('10');
    expect(await redis.raw.hGetAll(shards[0].keys.object('10'))).toEqual({ '#id': '10', topic: 'restored' });
    expect((await RlShardNote.find('10'))?.topic).toBe('restored');
    expect((await RlShardNote.check()).violations).toEqual([]);
  });

  it("a sharded model: a hash naming an id of another shard is named and left (that shard's sequence draws it)", async () => {
    const shards = shardScopes(await scopeOf('RlShardNote'));
    const key = shards[0].keys.object('101'); // id 101 is drawn by shard 1 ((101 - 1) mod 3)
    await redis.raw.hSet(key, { '#id': '101', topic: 'stray' });
    const sequence = await redis.raw.get(shards[0].keys.sequence);
    const repaired = await RlShardNote.repair();
    expect(repaired.fixed).toEqual([]);
    expect(repaired.left).toEqual([
      {
        kind: 'orphanHash',
        model: 'RlShardNote',
        id: '101',
        key,
        detail: 'hash of 101 is not in all, and 101 is an id of shard 1, not of shard 0',
      },
    ]);
    expect(await repairObject(shards[0], '101', [])).toBe('unlistable');
    expect(await redis.raw.zScore(shards[0].keys.all, '101')).toBeNull();
    expect(await redis.raw.get(shards[0].keys.sequence)).toBe(sequence);
    expect(await redis.raw.hGetAll(key)).toEqual({ '#id': '101', topic: 'stray' });
    await redis.raw.del(key);
    expect((await RlShardNote.check()).violations).toEqual([]);
  });
});

describe('an id past 2^53 - 1 is no sequence id', () => {
  const huge = '9007199254740993';

  it('a hash naming itself under such an id is named and left as it is, and creates go on', async () => {
    await RlHuge.create({ topic: 't' });
    const key = `${base('RlHuge')}:obj:${huge}`;
    await redis.raw.hSet(key, { '#id': huge, topic: 't' });
    const left = {
      kind: 'orphanHash',
      model: 'RlHuge',
      id: huge,
      key,
      detail: `hash of ${huge} is not in all, where a sequence model lists sequence ids only`,
    };
    expect((await RlHuge.check()).violations).toEqual([left]);
    for (let run = 0; run < 2; run++) {
      const repaired = await RlHuge.repair();
      expect(repaired.fixed).toEqual([]);
      expect(repaired.left).toEqual([left]);
    }
    expect(await repairObject(await scopeOf('RlHuge'), huge, [])).toBe('unlistable');
    expect(await redis.raw.zRange(`${base('RlHuge')}:all`, 0, -1)).toEqual(['1']);
    expect(await redis.raw.get(`${base('RlHuge')}:seq`)).toBe('1');
    expect((await RlHuge.create({ topic: 'n' })).id).toBe('2');
    expect(await redis.raw.hGetAll(key)).toEqual({ '#id': huge, topic: 't' });
    await redis.raw.del(key);
    expect((await RlHuge.check()).violations).toEqual([]);
  });

  it('such an id already in all does not make the sequence look behind', async () => {
    await redis.raw.hSet(`${base('RlHuge')}:obj:${huge}`, { '#id': huge, topic: 't' });
    await redis.raw.zAdd(`${base('RlHuge')}:all`, { score: Number(huge), value: huge });
    await redis.raw.sAdd(`${base('RlHuge')}:idx:topic:t`, huge);
    expect((await RlHuge.check()).violations).toEqual([]);
    const repaired = await RlHuge.repair();
    expect(repaired.fixed).toEqual([]);
    expect(await redis.raw.get(`${base('RlHuge')}:seq`)).toBe('2');
    expect((await RlHuge.create({ topic: 'n' })).id).toBe('3');
  });
});

describe('an id in all that is no valid id', () => {
  /** What check() names and repair() leaves: the stray key itself (it may be another program's data). */
  const stray = (key: string, id: string) => ({
    kind: 'orphanHash',
    model: 'RlPost',
    id,
    key,
    detail: `${key} is no object: "${id}" is not a valid id`,
  });

  it('with a hash naming it under its key: reported as missingHash, taken out of all with its entries, the key left', async () => {
    await RlPost.create({ topic: 't', slug: 'one' });
    const key = `${base('RlPost')}:obj:a:b`;
    await redis.raw.zAdd(`${base('RlPost')}:all`, { score: 0, value: 'a:b' });
    await redis.raw.hSet(key, { '#id': 'a:b', topic: 't', slug: 'two' });
    await redis.raw.sAdd(`${base('RlPost')}:idx:topic:t`, 'a:b');
    await redis.raw.hSet(`${base('RlPost')}:uniq:slug`, 'two', 'a:b');
    const found = await RlPost.check();
    expect(found.violations.map((v) => [v.kind, v.id]).sort()).toEqual([
      ['danglingEntry', 'a:b'],
      ['missingHash', 'a:b'],
      ['orphanHash', 'a:b'],
      ['uniqueOwner', 'a:b'],
    ]);
    expect(found.violations[0]).toEqual({
      kind: 'missingHash',
      model: 'RlPost',
      id: 'a:b',
      detail: '"a:b" is in all, but is not a valid id: it names no object',
    });
    expect(found.violations).toContainEqual(stray(key, 'a:b'));
    const repaired = await RlPost.repair();
    // the object first (the entries' fixes come after), then each entry
    expect(repaired.fixed[0]).toBe('object a:b: unlisted');
    expect([...repaired.fixed].sort()).toEqual(
      ['object a:b: unlisted', `${base('RlPost')}:idx:topic:t: 1 entry removed`, `${base('RlPost')}:uniq:slug: 1 entry removed`].sort(),
    );
    expect(repaired.left).toEqual([stray(key, 'a:b')]);
    // one repair is enough: what is left is what the next check names, and nothing else
    expect((await RlPost.check()).violations).toEqual(repaired.left);
    expect((await RlPost.repair()).fixed).toEqual([]);
    expect(await redis.raw.hGetAll(key)).toEqual({ '#id': 'a:b', topic: 't', slug: 'two' });
    expect(await redis.raw.zRange(`${base('RlPost')}:all`, 0, -1)).toEqual(['1']);
    expect(await redis.raw.sMembers(`${base('RlPost')}:idx:topic:t`)).toEqual(['1']);
    expect(await redis.raw.hGetAll(`${base('RlPost')}:uniq:slug`)).toEqual({ one: '1' });
    expect(await RlPost.count()).toBe(1);
    const next = await RlPost.create({ topic: 't', slug: 'two' });
    expect(next.id).toBe('2');
    expect((await RlPost.findBy({ topic: 't' })).map((post) => post.id).sort()).toEqual(['1', '2']);
    await redis.raw.del(key);
    expect((await RlPost.check()).violations).toEqual([]);
  });

  it('with a foreign hash under its key (no #id): taken out of all, the hash left as it is, no entry written', async () => {
    const key = `${base('RlPost')}:obj:1:x`;
    await redis.raw.zAdd(`${base('RlPost')}:all`, { score: 0, value: '1:x' });
    await redis.raw.hSet(key, { foo: 'bar', topic: 't' });
    const found = await RlPost.check();
    expect(found.violations.map((v) => [v.kind, v.id]).sort()).toEqual([
      ['missingHash', '1:x'],
      ['orphanHash', '1:x'],
    ]);
    const repaired = await RlPost.repair();
    expect(repaired.fixed).toEqual(['object 1:x: unlisted']);
    expect(repaired.left).toEqual([stray(key, '1:x')]);
    expect((await RlPost.check()).violations).toEqual(repaired.left);
    expect(await redis.raw.hGetAll(key)).toEqual({ foo: 'bar', topic: 't' });
    expect(await redis.raw.sMembers(`${base('RlPost')}:idx:topic:t`)).not.toContain('1:x');
    await redis.raw.del(key);
    expect((await RlPost.check()).violations).toEqual([]);
  });

  it("the object's script writes no entry for such an id, listed or not", async () => {
    const key = `${base('RlPost')}:obj:a:b`;
    await redis.raw.hSet(key, { '#id': 'a:b', topic: 'q' });
    const scope = await scopeOf('RlPost');
    expect(await repairObject(scope, 'a:b', [])).toBe('memo deleted');
    await redis.raw.zAdd(`${base('RlPost')}:all`, { score: 0, value: 'a:b' });
    expect(await repairObject(scope, 'a:b', [])).toBe('unlisted');
    expect(await redis.raw.exists(`${base('RlPost')}:idx:topic:q`)).toBe(0);
    expect(await redis.raw.zScore(`${base('RlPost')}:all`, 'a:b')).toBeNull();
    expect(await redis.raw.hGetAll(key)).toEqual({ '#id': 'a:b', topic: 'q' });
    await redis.raw.del(key);
    expect((await RlPost.check()).violations).toEqual([]);
  });
});
