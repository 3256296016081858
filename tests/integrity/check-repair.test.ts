import { Attr, BaseEntity, BelongsTo, HasMany, Index, ManyToMany, Model, SortableString, Unique } from '../../src';
import { modelScope, storedDefinitions } from '../../src/admin';
import { repairObject } from '../../src/integrity/apply-fix';
import { expectIndexesConsistent } from '../support/index-consistency';
import { expectRelationsConsistent } from '../support/relation-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * Each violation of the invariants, made by damaging stored data with a raw client: check() names it,
 * repair() fixes it, and afterwards check() and the test-side checkers find nothing.
 */

@Model({ group: 'crm' })
class IcAuthor extends BaseEntity {
  @Attr() @Unique({ caseInsensitive: true }) email?: string;
  @HasMany(() => IcPost, { inverse: 'author', onDelete: 'cascade' }) posts!: HasMany<IcPost>;
}

@Model({ group: 'crm' })
class IcPost extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr() @Index() score?: number;
  @Attr() @Index({ sortable: true, scope: 'topic' }) title?: SortableString;
  @Attr() @Unique() slug?: string;
  @BelongsTo(() => IcAuthor) author!: BelongsTo<IcAuthor>;
  authorId?: string;
  @ManyToMany(() => IcTag, { inverse: 'posts' }) tags!: ManyToMany<IcTag>;
}

@Model({ group: 'crm' })
class IcTag extends BaseEntity {
  @Attr() @Index() label?: string;
  @ManyToMany(() => IcPost, { inverse: 'tags' }) posts!: ManyToMany<IcPost>;
}

@Model({ ttl: 3600 })
class IcLog extends BaseEntity {
  @Attr() @Index() level?: string;
  @Attr() @Index() at?: number;
}

@Model({ expirable: true })
class IcNote extends BaseEntity {
  @Attr() @Index() tag?: string;
  @Attr() @Unique() code?: string;
}

/** Its objects without a code have no entry: a unique index holds the values only. */
@Model({ expirable: true })
class IcBareCode extends BaseEntity {
  @Attr() @Unique() code?: string;
}

@Model()
class IcCode extends BaseEntity {
  @Attr() @Unique() code?: string;
}

const redis = useTestRedis();
const base = (name: string) => `${redis.prefix}:{crm}:${name}`;

async function fill(): Promise<void> {
  const ann = await IcAuthor.create({ email: 'Ann@X.io' });
  await IcAuthor.create({ email: 'bob@x.io' });
  for (let i = 1; i <= 6; i++) {
    await IcPost.create({
      topic: i % 2 ? 'redis' : 'valkey',
      score: i,
      title: `t\0${i}` as SortableString,
      slug: `s${i}`,
      authorId: ann.id,
    } as never);
  }
  const tag = await IcTag.create({ label: 'db' });
  await (await IcPost.findOrFail('1')).tags.add(tag);
  for (let i = 0; i < 3; i++) await IcLog.create({ level: 'info', at: i });
}

async function expectClean(): Promise<void> {
  for (const model of [IcAuthor, IcPost, IcTag, IcLog, IcNote]) {
    const result = await model.check();
    expect(result.violations).toEqual([]);
    expect(result.ok).toBe(true);
    await expectIndexesConsistent(model, redis.raw, redis.prefix);
  }
  await expectRelationsConsistent([IcAuthor, IcPost, IcTag], redis.raw, redis.prefix);
}

/** Damages, checks that `kind` is reported for the model, repairs, and checks all is clean again. */
async function damageAndRepair(
  model: typeof IcPost | typeof IcAuthor | typeof IcTag | typeof IcLog | typeof IcNote,
  kind: string,
  damage: () => Promise<unknown>,
) {
  await damage();
  const found = await model.check();
  expect(found.ok).toBe(false);
  expect(found.violations.map((v) => v.kind)).toContain(kind);
  const repaired = await model.repair();
  expect(repaired.fixed.length).toBeGreaterThan(0);
  expect(repaired.left).toEqual([]);
  await expectClean();
  return { found, repaired };
}

beforeAll(fill);

it('finds nothing in data written by the library', async () => {
  await expectClean();
});

describe('objects and all (invariants 1 and 2)', () => {
  it('an orphan hash whose #id matches its key is listed again', async () => {
    const { repaired } = await damageAndRepair(IcPost, 'orphanHash', () => redis.raw.zRem(`${base('IcPost')}:all`, '2'));
    expect(repaired.fixed).toContain('object 2: relisted');
    expect(await IcPost.find('2')).not.toBeNull();
  });

  it('an orphan hash with another #id is deleted', async () => {
    await damageAndRepair(IcPost, 'orphanHash', () => redis.raw.hSet(`${base('IcPost')}:obj:99`, { '#id': '7', topic: 'x' }));
    expect(await redis.raw.exists(`${base('IcPost')}:obj:99`)).toBe(0);
  });

  it('a listed hash whose #id names another id, or that has none, gets its own id back', async () => {
    const key = `${base('IcPost')}:obj:3`;
    const { repaired } = await damageAndRepair(IcPost, 'orphanHash', () => redis.raw.hSet(key, '#id', '8'));
    expect(repaired.fixed).toContain('object 3: #id restored');
    expect(await redis.raw.hGet(key, '#id')).toBe('3');
    await damageAndRepair(IcPost, 'orphanHash', () => redis.raw.hDel(key, '#id'));
    expect(await redis.raw.hGet(key, '#id')).toBe('3');
    expect((await IcPost.findOrFail('3')).slug).toBe('s3');
  });

  it('an id listed under another score than its own is scored by its number again', async () => {
    const all = `${base('IcPost')}:all`;
    const { found, repaired } = await damageAndRepair(IcPost, 'wrongEntry', () =>
      redis.raw.zAdd(all, { score: 100, value: '5' }, { XX: true }),
    );
    expect(found.violations).toEqual([expect.objectContaining({ kind: 'wrongEntry', id: '5', key: all })]);
    expect(repaired.fixed).toContain('object 5: rescored');
    expect(await redis.raw.zScore(all, '5')).toBe(5);
    expect(await IcPost.findIds({}, { limit: 100 })).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('an id in all without hash (and no expiry) is removed with its entries', async () => {
    const post = await IcPost.create({ topic: 'gone', score: 50, slug: 'gone' });
    await damageAndRepair(IcPost, 'missingHash', () => redis.raw.del(`${base('IcPost')}:obj:${post.id}`));
    expect(await IcPost.count()).toBe(6);
  });
});

describe('index entries (invariant 3)', () => {
  it('a missing set entry is rebuilt from the hash', async () => {
    await damageAndRepair(IcPost, 'missingEntry', () => redis.raw.sRem(`${base('IcPost')}:idx:topic:redis`, '3'));
    expect(await redis.raw.sIsMember(`${base('IcPost')}:idx:topic:redis`, '3')).toBeTruthy();
  });

  it('a dangling set entry is removed', async () => {
    await damageAndRepair(IcPost, 'danglingEntry', () => redis.raw.sAdd(`${base('IcPost')}:idx:topic:redis`, '404'));
  });

  it('an entry under the wrong value is removed', async () => {
    await damageAndRepair(IcPost, 'wrongEntry', () => redis.raw.sAdd(`${base('IcPost')}:idx:topic:valkey`, '1'));
  });

  it('a wrong score is corrected', async () => {
    await damageAndRepair(IcPost, 'wrongEntry', () => redis.raw.zAdd(`${base('IcPost')}:idx:score`, { score: 1000, value: '4' }));
    expect(await redis.raw.zScore(`${base('IcPost')}:idx:score`, '4')).toBe(4);
  });

  it('a missing lex entry (value with a NUL byte, scoped) is rebuilt', async () => {
    const key = `${base('IcPost')}:lex:title@topic:valkey`;
    const members = await redis.raw.zRange(key, 0, -1);
    await damageAndRepair(IcPost, 'missingEntry', () => redis.raw.zRem(key, members[0]));
    expect(await redis.raw.zCard(key)).toBe(members.length);
  });

  it('a key of no declared index is deleted', async () => {
    await damageAndRepair(IcPost, 'unknownKey', () => redis.raw.sAdd(`${base('IcPost')}:idx:colour:red`, '1'));
  });
});

describe('unique values (invariant 4)', () => {
  it('a value owned by an object that does not hold it goes back to its holder', async () => {
    await damageAndRepair(IcPost, 'uniqueOwner', () => redis.raw.hSet(`${base('IcPost')}:uniq:slug`, 's1', '2'));
    expect(await redis.raw.hGet(`${base('IcPost')}:uniq:slug`, 's1')).toBe('1');
  });

  it('a value owned by none is claimed again; one owned by a missing object is dropped', async () => {
    await damageAndRepair(IcPost, 'missingEntry', () => redis.raw.hDel(`${base('IcPost')}:uniq:slug`, 's3'));
    await damageAndRepair(IcPost, 'uniqueOwner', () => redis.raw.hSet(`${base('IcPost')}:uniq:slug`, 'ghost', '77'));
  });

  it('a case-folded field out of step is recomputed', async () => {
    await damageAndRepair(IcAuthor, 'wrongEntry', () => redis.raw.hSet(`${base('IcAuthor')}:obj:1`, '#ci:email', 'nobody'));
    expect(await redis.raw.hGet(`${base('IcAuthor')}:obj:1`, '#ci:email')).toBe('ann@x.io');
  });

  it('a value several objects hold and none owns goes to the first of them (300 objects)', async () => {
    await IcCode.saveMany(Array.from({ length: 300 }, (_, i) => IcCode.build({ code: `u${i + 1}` })));
    const uniq = `${redis.prefix}:{IcCode}:uniq:code`;
    const damage = redis.raw.multi();
    for (let k = 1; k <= 150; k++)
      damage.hSet(`${redis.prefix}:{IcCode}:obj:${k + 150}`, 'code', `u${k}`).hDel(uniq, [`u${k}`, `u${k + 150}`]);
    await damage.exec();
    expect((await IcCode.check()).violations.map((v) => v.kind)).toEqual(Array(300).fill('missingEntry'));
    await IcCode.repair();
    const owners = await redis.raw.hGetAll(uniq);
    expect(Object.entries(owners).filter(([value, id]) => value !== `u${id}`)).toEqual([]);
    expect(Object.keys(owners)).toHaveLength(150);
    expect((await IcCode.check()).violations.map((v) => v.kind)).toEqual(Array(150).fill('duplicateUnique'));
  });

  it('two objects holding one value are reported and left as they are', async () => {
    await redis.raw.hSet(`${base('IcPost')}:obj:5`, 'slug', 's6');
    const found = await IcPost.check();
    expect(found.violations.map((v) => v.kind)).toContain('duplicateUnique');
    const repaired = await IcPost.repair();
    expect(repaired.left.map((v) => v.kind)).toEqual(['duplicateUnique']);
    await redis.raw.hSet(`${base('IcPost')}:obj:5`, 'slug', 's5');
    await IcPost.repair();
    await expectClean();
  });
});

describe('the sequence (invariant 5)', () => {
  it('a sequence behind the largest id is raised', async () => {
    await damageAndRepair(IcPost, 'sequenceBehind', () => redis.raw.set(`${base('IcPost')}:seq`, '2'));
    expect(Number(await redis.raw.get(`${base('IcPost')}:seq`))).toBeGreaterThanOrEqual(6);
  });
});

describe('relations (invariant 6)', () => {
  it('a foreign key naming a missing parent is nullified, with its index entry', async () => {
    const { repaired } = await damageAndRepair(IcPost, 'danglingForeignKey', async () => {
      await redis.raw.hSet(`${base('IcPost')}:obj:6`, 'authorId', '999');
      await redis.raw.sRem(`${base('IcPost')}:idx:authorId:1`, '6');
      await redis.raw.sAdd(`${base('IcPost')}:idx:authorId:999`, '6');
    });
    expect(repaired.fixed).toContain('object 6: authorId nullified');
    expect((await IcPost.findOrFail('6')).authorId).toBeUndefined();
  });

  it('a foreign key naming a parent whose hash fell out of `all` is kept: the parent is listed again', async () => {
    await redis.raw.zRem(`${base('IcAuthor')}:all`, '1');
    expect((await IcPost.check()).violations.map((v) => v.kind)).not.toContain('danglingForeignKey');
    // the children's model first, as the command-line tool's alphabetical order may do
    await IcPost.repair();
    expect((await IcAuthor.check()).violations.map((v) => v.kind)).toContain('orphanHash');
    await IcAuthor.repair();
    expect((await IcPost.findBy({ authorId: '1' })).length).toBeGreaterThan(0);
    await expectClean();
  });

  it('a membership on one side only is completed when both objects live', async () => {
    const { repaired } = await damageAndRepair(IcTag, 'oneSidedMembership', () => redis.raw.sRem(`${base('IcPost')}:rel:tags:1`, '1'));
    expect(repaired.fixed.some((line) => line.endsWith('completed'))).toBe(true);
    expect(await redis.raw.sMembers(`${base('IcPost')}:rel:tags:1`)).toEqual(['1']);
  });

  it('a membership naming a missing object is removed from both sides', async () => {
    await damageAndRepair(IcPost, 'oneSidedMembership', () => redis.raw.sAdd(`${base('IcPost')}:rel:tags:3`, '55'));
    expect(await redis.raw.exists(`${base('IcPost')}:rel:tags:3`)).toBe(0);
  });
});

describe('memos (objects with a TTL)', () => {
  const logBase = () => `${redis.prefix}:{IcLog}`;

  it('a memo lacking an entry is rewritten', async () => {
    await damageAndRepair(IcLog, 'memoMismatch', () => redis.raw.hDel(`${logBase()}:memo:1`, `S${logBase()}:idx:level:info`));
  });

  it('a memo recording an entry the object does not have is rewritten', async () => {
    await damageAndRepair(IcLog, 'memoMismatch', () => redis.raw.hSet(`${logBase()}:memo:2`, `S${logBase()}:idx:level:warn`, '2'));
  });

  it('expired objects awaiting their sweep are not violations', async () => {
    const log = await IcLog.create({ level: 'debug', at: 9 });
    await redis.raw.pExpire(`${logBase()}:obj:${log.id}`, 1);
    await redis.raw.zAdd(`${logBase()}:exp`, { score: Date.now(), value: log.id });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await IcLog.check()).violations).toEqual([]);
    await IcLog.sweep();
  });
});

describe('expiry entries (exp follows the hash TTL)', () => {
  const logBase = () => `${redis.prefix}:{IcLog}`;

  it('an object whose hash expires but is not in exp is entered again at the time it expires', async () => {
    const before = Date.now();
    const { found } = await damageAndRepair(IcLog, 'missingEntry', () => redis.raw.zRem(`${logBase()}:exp`, '1'));
    expect(found.violations).toEqual([expect.objectContaining({ kind: 'missingEntry', id: '1', key: `${logBase()}:exp` })]);
    const at = Number(await redis.raw.zScore(`${logBase()}:exp`, '1'));
    // the time the hash expires, as Redis has it (the repair reads its PTTL and the clock within one script)
    const expiresAt = Number(await redis.raw.sendCommand(['PEXPIRETIME', `${logBase()}:obj:1`]));
    expect(Math.abs(at - expiresAt)).toBeLessThanOrEqual(1000);
    expect(at).toBeGreaterThan(before);
  });

  it('an object given a TTL by hand, without exp entry or memo, is entered and keeps a memo', async () => {
    const post = await IcPost.create({ topic: 'ttl', score: 70, slug: 'ttl-by-hand' });
    const key = `${base('IcPost')}:obj:${post.id}`;
    await damageAndRepair(IcPost, 'missingEntry', () => redis.raw.expire(key, 3600));
    expect(await redis.raw.zScore(`${base('IcPost')}:exp`, post.id)).not.toBeNull();
    expect(await redis.raw.exists(`${base('IcPost')}:memo:${post.id}`)).toBe(1);
    await post.remove();
    expect(await redis.raw.exists(`${base('IcPost')}:memo:${post.id}`)).toBe(0);
  });

  it('an object given a TTL by expire() whose memo is gone gets its memo back; one without entries needs none', async () => {
    const note = await IcNote.create({ tag: 'memo', code: 'memo-gone' });
    // a set index holds every object (those without a value in its nil set): an object without entries is a
    // unique attribute's without a value
    const bare = await IcBareCode.create({});
    await note.expire(3600);
    await bare.expire(3600);
    const memo = `${redis.prefix}:{IcNote}:memo:${note.id}`;
    const recorded = await redis.raw.hGetAll(memo);
    expect(Object.keys(recorded)).toHaveLength(2);
    expect(await redis.raw.exists(`${redis.prefix}:{IcBareCode}:memo:${bare.id}`)).toBe(0);
    expect((await IcNote.check()).violations).toEqual([]);
    const { found } = await damageAndRepair(IcNote, 'memoMismatch', () => redis.raw.del(memo));
    expect(found.violations).toEqual([expect.objectContaining({ kind: 'memoMismatch', id: note.id, key: memo })]);
    expect(await redis.raw.hGetAll(memo)).toEqual(recorded);
    await IcNote.removeMany([note.id!, bare.id!]);
  });

  it('an exp entry of an object whose hash does not expire is removed', async () => {
    await damageAndRepair(IcPost, 'wrongEntry', () => redis.raw.zAdd(`${base('IcPost')}:exp`, { score: Date.now() + 60_000, value: '4' }));
    expect(await redis.raw.zScore(`${base('IcPost')}:exp`, '4')).toBeNull();
  });

  it('a hash whose TTL was removed by hand keeps the object, without its exp entry', async () => {
    const log = await IcLog.create({ level: 'kept', at: 11 });
    await damageAndRepair(IcLog, 'wrongEntry', () => redis.raw.persist(`${logBase()}:obj:${log.id}`));
    expect(await redis.raw.zScore(`${logBase()}:exp`, log.id)).toBeNull();
    expect(await redis.raw.pTTL(`${logBase()}:obj:${log.id}`)).toBe(-1);
    expect(await IcLog.count({ level: 'kept' })).toBe(1);
    await log.remove();
  });
});

describe('tenant scopes', () => {
  it('are checked and repaired on their own', async () => {
    const Acme = IcTag.scope('acme');
    await Acme.create({ label: 'a' });
    const key = `${redis.prefix}:{acme/crm}:IcTag:idx:label:a`;
    await redis.raw.del(key);
    expect((await IcTag.check()).ok).toBe(true);
    const found = await Acme.check();
    expect(found.violations).toEqual([expect.objectContaining({ kind: 'missingEntry', model: 'IcTag', id: '1', key })]);
    await Acme.repair();
    expect((await Acme.check()).ok).toBe(true);
    expect(await redis.raw.sMembers(key)).toEqual(['1']);
  });
});

describe('keys of the wrong type (wrongType)', () => {
  it("a listed object's key holding a string is named and left; entries naming it are removed", async () => {
    const key = `${base('IcPost')}:obj:3`;
    const hash = await redis.raw.hGetAll(key);
    await redis.raw.del(key);
    await redis.raw.set(key, 'junk');
    const found = await IcPost.check();
    expect(found.violations).toContainEqual(expect.objectContaining({ kind: 'wrongType', id: '3', key }));
    const repaired = await IcPost.repair();
    expect(repaired.left).toEqual([expect.objectContaining({ kind: 'wrongType', id: '3', key })]);
    expect(await redis.raw.get(key)).toBe('junk');
    expect(await redis.raw.sIsMember(`${base('IcPost')}:idx:topic:redis`, '3')).toBeFalsy();
    await redis.raw.del(key);
    await redis.raw.hSet(key, hash);
    await IcPost.repair();
    await expectClean();
  });

  it('a stray string under obj: is named and left as it is', async () => {
    const key = `${base('IcPost')}:obj:600`;
    await redis.raw.set(key, 'junk');
    const found = await IcPost.check();
    expect(found.violations).toEqual([
      expect.objectContaining({ kind: 'wrongType', id: '600', key, detail: `${key} holds a string, not a hash` }),
    ]);
    const repaired = await IcPost.repair();
    expect(repaired).toEqual({ found: found.violations, fixed: [], left: found.violations });
    expect(await redis.raw.get(key)).toBe('junk');
    await redis.raw.del(key);
    await expectClean();
  });

  it('an index key of the wrong type is deleted, and the entries it should hold are rebuilt', async () => {
    const key = `${base('IcPost')}:idx:topic:redis`;
    const { found, repaired } = await damageAndRepair(IcPost, 'wrongType', async () => {
      await redis.raw.del(key);
      await redis.raw.set(key, 'junk');
    });
    expect(found.violations).toContainEqual(
      expect.objectContaining({ kind: 'wrongType', key, detail: `${key} holds a string, not the set of index set:topic` }),
    );
    expect(found.violations).toContainEqual(expect.objectContaining({ kind: 'missingEntry', id: '1', key }));
    expect(repaired.fixed).toContain(`${key}: deleted`);
    expect((await redis.raw.sMembers(key)).sort()).toEqual(['1', '3', '5']);
  });

  it('a memo of the wrong type is written again', async () => {
    const memo = `${redis.prefix}:{IcLog}:memo:1`;
    await damageAndRepair(IcLog, 'wrongType', async () => {
      await redis.raw.del(memo);
      await redis.raw.set(memo, 'junk');
    });
    expect(await redis.raw.type(memo)).toBe('hash');
  });

  it('a membership set of the wrong type is deleted, then completed from the other side', async () => {
    const key = `${base('IcPost')}:rel:tags:1`;
    await redis.raw.del(key);
    await redis.raw.set(key, 'junk');
    expect((await IcPost.check()).violations).toEqual([expect.objectContaining({ kind: 'wrongType', key })]);
    expect(await IcPost.repair()).toMatchObject({ fixed: [`${key}: deleted`], left: [] });
    // the tag's side still holds the membership
    expect((await IcTag.repair()).fixed).toEqual([`membership ${base('IcTag')}:rel:posts:1 / 1: completed`]);
    expect(await redis.raw.sMembers(key)).toEqual(['1']);
    await expectClean();
  });
});

describe('damage repair cannot settle: left, while the rest is repaired', () => {
  it('a stray hash whose key is no valid id is no object: named and left as it is', async () => {
    const key = `${base('IcPost')}:obj:a:b`;
    await redis.raw.hSet(key, { '#id': 'a:b', topic: 'x' });
    await redis.raw.sRem(`${base('IcPost')}:idx:topic:redis`, '3');
    const repaired = await IcPost.repair();
    expect(repaired.fixed).toEqual(['object 3: rebuilt']);
    expect(repaired.left).toEqual([
      { kind: 'orphanHash', model: 'IcPost', id: 'a:b', key, detail: `${key} is no object: "a:b" is not a valid id` },
    ]);
    expect(await redis.raw.hGetAll(key)).toEqual({ '#id': 'a:b', topic: 'x' });
    await redis.raw.del(key);
    await expectClean();
  });

  it('a stray hash naming itself whose id is not a sequence number is left: a sequence model lists sequence ids only', async () => {
    const key = `${base('IcPost')}:obj:abc`;
    await redis.raw.hSet(key, { '#id': 'abc', topic: 'x' });
    await redis.raw.sRem(`${base('IcPost')}:idx:topic:redis`, '3');
    const repaired = await IcPost.repair();
    expect(repaired.fixed).toEqual(['object 3: rebuilt']);
    expect(repaired.left).toEqual([expect.objectContaining({ kind: 'orphanHash', id: 'abc', key })]);
    expect(await redis.raw.zScore(`${base('IcPost')}:all`, 'abc')).toBeNull();
    // the object's script refuses it too (nothing written), should it be asked
    const definitions = await storedDefinitions(redis.raw, redis.prefix);
    const scope = modelScope(redis.raw, redis.prefix, definitions.get('IcPost')!, (name) => definitions.get(name));
    expect(await repairObject(scope, 'abc', [])).toBe('unlistable');
    expect(await redis.raw.exists(`${base('IcPost')}:idx:topic:x`)).toBe(0);
    await redis.raw.del(key);
    await expectClean();
  });

  it('two objects holding a unique value that neither owns: the first takes it, the other is left as a duplicate', async () => {
    const slugs = `${base('IcPost')}:uniq:slug`;
    await redis.raw.hSet(`${base('IcPost')}:obj:4`, 'slug', 's3');
    await redis.raw.hDel(slugs, ['s3', 's4']);
    const found = await IcPost.check();
    expect(found.violations.map((v) => [v.kind, v.id])).toEqual([
      ['missingEntry', '3'],
      ['missingEntry', '4'],
    ]);
    const repaired = await IcPost.repair();
    expect(repaired.fixed).toEqual(['object 3: rebuilt']);
    expect(repaired.left).toEqual([expect.objectContaining({ kind: 'duplicateUnique', id: '4', key: slugs })]);
    expect((await IcPost.check()).violations).toEqual(repaired.left);
    await redis.raw.hSet(`${base('IcPost')}:obj:4`, 'slug', 's4');
    await IcPost.repair();
    await expectClean();
  });

  it('a score-indexed value that is not a stored number is named and left; its entry stays as it was', async () => {
    const obj = `${base('IcPost')}:obj:5`;
    await redis.raw.hSet(obj, 'score', 'abc');
    await redis.raw.sRem(`${base('IcPost')}:idx:topic:redis`, '5');
    const found = await IcPost.check();
    const wrong = {
      kind: 'wrongEntry',
      model: 'IcPost',
      id: '5',
      key: `${base('IcPost')}:idx:score`,
      detail: `score of 5 holds "abc", not a stored number: ${base('IcPost')}:idx:score cannot hold it`,
    };
    expect(found.violations).toContainEqual(wrong);
    const repaired = await IcPost.repair();
    expect(repaired.fixed).toEqual([]);
    expect(repaired.left).toEqual([wrong]);
    expect(await redis.raw.sIsMember(`${base('IcPost')}:idx:topic:redis`, '5')).toBeTruthy();
    expect(await redis.raw.zScore(`${base('IcPost')}:idx:score`, '5')).toBe(5);
    await redis.raw.hSet(obj, 'score', '5');
    await expectClean();
  });

  it('a score-indexed value that overflows or underflows a double is no score either', async () => {
    const obj = `${base('IcPost')}:obj:5`;
    for (const value of ['1e+999', '1e-999']) {
      await redis.raw.hSet(obj, 'score', value);
      expect((await IcPost.repair()).left).toEqual([expect.objectContaining({ kind: 'wrongEntry', id: '5' })]);
    }
    await redis.raw.hSet(obj, 'score', '0e-999');
    expect((await IcPost.repair()).fixed).toEqual(['object 5: rebuilt']);
    await redis.raw.hSet(obj, 'score', '5');
    await IcPost.repair();
    await expectClean();
  });
});
