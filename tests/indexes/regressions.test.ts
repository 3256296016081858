import { Attr, BaseEntity, DynamicAttrs, Index, Model, SortableString, Unique, UniqueConstraintError } from '../../src';
import { keysUnder, useTestRedis } from '../support/test-redis';

@Model()
class RegNote extends BaseEntity {
  @Attr() owner?: string;
  @Attr() @Index({ sortable: true, scope: 'owner' }) title?: SortableString;
}

@Model()
class RegNumber extends BaseEntity {
  @Attr() @Unique() n?: number;
  @Attr() team?: number;
  @Attr() @Index({ scope: 'team' }) at?: number;
}

@Model()
class RegDoc extends BaseEntity {
  @Attr() @Index({ sortable: true }) name?: SortableString;
  @Attr() @Index() n?: number;
  @Attr() @Index() tag?: string;
}

@Model()
class RegProfile extends BaseEntity {
  @Attr() @Index() name?: string;
  @DynamicAttrs() extra: Record<string, string | number | boolean> = {};
}

const redis = useTestRedis();

describe('regressions', () => {
  it('answers an equality on the scope of a sortable-string index', async () => {
    const note = await RegNote.create({ owner: 'ann', title: 'hello' });
    expect(await RegNote.findIds({ owner: 'ann' })).toEqual([note.id]);
    expect(await RegNote.count({ owner: 'ann' })).toBe(1);
  });

  it('treats -0 and 0 as one value in unique and scoped indexes', async () => {
    const zero = await RegNumber.create({ n: 0, team: -0, at: 1 });
    await expect(RegNumber.create({ n: -0 })).rejects.toBeInstanceOf(UniqueConstraintError);
    expect(await RegNumber.findIds({ n: -0 })).toEqual([zero.id]);
    expect(await RegNumber.findIds({ team: 0 }, { orderBy: { at: 'asc' } })).toEqual([zero.id]);
    expect(Object.is((await RegNumber.findOrFail(zero.id)).team, -0)).toBe(true);
  });

  it('answers an `in` with thousands of values, and a failed query leaves nothing that changes the next', async () => {
    const apple = await RegDoc.create({ name: 'apple', n: 1, tag: 't1' });
    const banana = await RegDoc.create({ name: 'banana', n: 2, tag: 't2' });
    const many = [...Array(9000).keys()];
    expect(await RegDoc.findIds({ name: { startsWith: 'a' }, n: { in: many } })).toEqual([apple.id]);
    expect(await RegDoc.findIds({ tag: { in: many.map((i) => `t${i}`) } })).toEqual([apple.id, banana.id]);
    expect(await RegDoc.findIds({ name: { startsWith: 'b' }, n: { gte: 0 } })).toEqual([banana.id]);
    expect((await keysUnder(redis.raw, redis.prefix)).filter((key) => key.includes(':tmp:'))).toEqual([]);
  });

  it('saves and removes thousands of dynamic attributes in one script call', async () => {
    const extra = Object.fromEntries([...Array(5000).keys()].map((i) => [`k${i}`, i]));
    const profile = await RegProfile.create({ name: 'wide', extra });
    expect(Object.keys((await RegProfile.findOrFail(profile.id)).extra)).toHaveLength(5000);
    profile.extra = { only: 'one' };
    await profile.save();
    expect((await RegProfile.findOrFail(profile.id)).extra).toEqual({ only: 'one' });
    expect(await redis.raw.hLen(`${redis.prefix}:{RegProfile}:obj:${profile.id}`)).toBe(3);
  });
});

@Model()
class RegFolded extends BaseEntity {
  @Attr() @Unique({ caseInsensitive: true }) email?: string;
}

describe('a case-insensitive unique value written by a stale instance', () => {
  it('keeps its lower-cased field with it, whatever another writer did in between', async () => {
    const stale = await RegFolded.create({ email: 'A@x.io' });
    const other = await RegFolded.findOrFail(stale.id);
    other.email = undefined; // another writer clears it (and its #ci:email)
    await other.save();
    stale.email = 'a@x.io'; // same lower case as the stale snapshot's #ci:email
    await stale.save();
    const hash = await redis.raw.hGetAll(`${redis.prefix}:{RegFolded}:obj:${stale.id}`);
    expect(hash).toMatchObject({ email: 'a@x.io', '#ci:email': 'a@x.io' });
    expect(await redis.raw.hGet(`${redis.prefix}:{RegFolded}:uniq:email`, 'a@x.io')).toBe(stale.id);
    expect((await RegFolded.check()).ok).toBe(true);
  });
});
