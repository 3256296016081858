import { Attr, BaseEntity, Index, Model, Unique, WrongTypeError } from '../../src';
import { useTestRedis } from '../support/test-redis';
import { expectRefused as refused, snapshot } from './support/key-snapshots';

/**
 * Keys of another Redis type that a write meets beside the keys of the object it names: the key under a new
 * object's id, the keys of an expired or evicted object that a write sweeps, a unique hash read for a value the
 * write does not change, a memo that persist() deletes, a model with more index entries than fit in one number.
 * Each is refused and left as it is, or, where the write sweeps an object it did not name, that object is left
 * to check() and repair() while the write goes on.
 */

@Model()
class EdPlain extends BaseEntity {
  @Attr() @Index() tag?: string;
}

@Model()
class EdUnique extends BaseEntity {
  @Attr() @Unique() code?: string;
  @Attr() note?: string;
  @Attr() @Index() n?: number;
}

@Model({ ttl: 3600 })
class EdTimed extends BaseEntity {
  @Attr() @Index() tag?: string;
}

@Model({ expirable: true })
class EdExpirable extends BaseEntity {
  @Attr() @Index() kind?: string;
}

@Model({ cap: { by: 'score', keep: 2 } })
class EdCapped extends BaseEntity {
  @Attr() @Index() score!: number;
  @Attr() @Index() tag?: string;
}

/** A model with 60 set indexes: its create's and remove's take-backs keep more entries than a number's 53 bits. */
class EdWide extends BaseEntity {}
const WIDE = 60;
for (let i = 0; i < WIDE; i++) {
  Attr({ type: 'string' })(EdWide.prototype, `a${i}`);
  Index()(EdWide.prototype, `a${i}`);
}
Model()(EdWide);
const wide = (value: string) => Object.fromEntries(Array.from({ length: WIDE }, (_, i) => [`a${i}`, value]));

const redis = useTestRedis();
const key = (model: string, name: string) => `${redis.prefix}:{${model}}:${name}`;
const expectRefused = (damaged: string, expected: string, operation: () => Promise<unknown>) =>
  refused(redis.raw, redis.prefix, damaged, expected, operation);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the key under a new id', () => {
  it.each([
    ['create-plain.lua', EdPlain, () => EdPlain.create({ tag: 't' })],
    ['save.lua', EdUnique, () => EdUnique.create({ code: 'c' })],
    ['save.lua, a model that keeps memos', EdTimed, () => EdTimed.create({ tag: 't' })],
  ] as const)(
    '%s: a key of another type there is refused and left as it is; the next create takes the next id',
    async (_, model, create) => {
      const next = Number((await redis.raw.get(key(model.name, 'seq'))) ?? 0) + 1;
      const occupied = key(model.name, `obj:${next}`);
      await redis.raw.set(occupied, 'another program');
      const error = await create().catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(WrongTypeError);
      expect(error).toMatchObject({ key: occupied, expected: 'hash', found: 'string' });
      expect(await redis.raw.get(occupied)).toBe('another program');
      expect(await model.count()).toBe(0);
      const made = await create();
      expect(made.id).toBe(String(next + 1));
      await redis.raw.del(occupied);
      expect(await (model as typeof EdPlain).check()).toMatchObject({ ok: true });
      await made.remove();
    },
  );

  it('a memo of another type under the new id of a model that keeps memos is refused and left as it is', async () => {
    const next = Number((await redis.raw.get(key('EdTimed', 'seq'))) ?? 0) + 1;
    const memo = key('EdTimed', `memo:${next}`);
    await redis.raw.set(memo, 'another program');
    await expect(EdTimed.create({ tag: 't' })).rejects.toMatchObject({ name: 'WrongTypeError', key: memo });
    expect(await redis.raw.get(memo)).toBe('another program');
    await redis.raw.del(memo);
  });

  it('a stray hash under the new id is replaced, not merged into', async () => {
    const next = Number((await redis.raw.get(key('EdPlain', 'seq'))) ?? 0) + 1;
    await redis.raw.hSet(key('EdPlain', `obj:${next}`), { stray: 'field', tag: 'old' });
    const made = await EdPlain.create({ tag: 'new' });
    expect(made.id).toBe(String(next));
    expect(await redis.raw.hGetAll(key('EdPlain', `obj:${next}`))).toEqual({ '#id': String(next), tag: 'new' });
    expect(await EdPlain.check()).toMatchObject({ ok: true });
    await made.remove();
  });
});

describe('writes that sweep or evict an object they did not name', () => {
  it('a create of an expirable model leaves an expired object whose index key holds another type, and is written whole', async () => {
    const expired = await EdExpirable.create({ kind: 'gone' });
    await expired.expire(0.05);
    await sleep(120);
    const damaged = key('EdExpirable', 'idx:kind:gone');
    await redis.raw.del(damaged);
    await redis.raw.set(damaged, 'by hand');
    const made = await EdExpirable.create({ kind: 'new' });
    expect(await EdExpirable.findIds({ kind: 'new' })).toEqual([made.id]);
    // the expired object is still due: check() names the key, and repair() settles it
    const checked = await EdExpirable.check();
    expect(checked.violations).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'wrongType', key: damaged })]));
    expect(checked.violations.every(({ key: named }) => named === damaged)).toBe(true);
    await EdExpirable.repair();
    expect(await EdExpirable.check()).toMatchObject({ ok: true });
    expect(await EdExpirable.count()).toBe(1);
  });

  it('a create of a capped model keeps a victim whose index key holds another type, over the cap, until repair()', async () => {
    const low = await EdCapped.create({ score: 1, tag: 'low' });
    await EdCapped.create({ score: 2, tag: 'mid' });
    const damaged = key('EdCapped', 'idx:tag:low');
    await redis.raw.del(damaged);
    await redis.raw.set(damaged, 'by hand');
    const made = await EdCapped.create({ score: 3, tag: 'high' });
    expect(await EdCapped.exists(made.id)).toBe(true);
    expect(await EdCapped.exists(low.id)).toBe(true);
    await redis.raw.del(damaged);
    await redis.raw.sAdd(damaged, low.id);
    // the next write trims it
    await EdCapped.create({ score: 4, tag: 'top' });
    expect((await EdCapped.findBy({}, { orderBy: { score: 'desc' } })).map(({ score }) => score)).toEqual([4, 3]);
    expect(await EdCapped.check()).toMatchObject({ ok: true });
  });

  it('an update of an object that expired, with a key of the expired object of another type, is a NotFoundError and leaves it', async () => {
    const made = await EdExpirable.create({ kind: 'brief' });
    const stale = (await EdExpirable.find(made.id))!;
    await made.expire(0.05);
    await sleep(120);
    const damaged = key('EdExpirable', 'idx:kind:brief');
    await redis.raw.del(damaged);
    await redis.raw.set(damaged, 'by hand');
    stale.kind = 'changed';
    await expect(stale.save()).rejects.toMatchObject({ name: 'NotFoundError' });
    const result = await EdExpirable.saveMany([stale]);
    expect(result.failed).toEqual([expect.objectContaining({ error: expect.objectContaining({ name: 'NotFoundError' }) })]);
    await redis.raw.del(damaged);
    await EdExpirable.repair();
    expect(await EdExpirable.check()).toMatchObject({ ok: true });
  });
});

describe('keys a write reads without changing them', () => {
  it('an update that writes an unchanged unique value again, the unique hash of another type', async () => {
    const made = await EdUnique.create({ code: 'same', n: 1 });
    const first = (await EdUnique.find(made.id))!;
    const second = (await EdUnique.find(made.id))!;
    second.code = 'other';
    await second.save();
    // `first` still holds 'same'; the stored value is 'other': the save writes 'other' again, unchanged
    first.code = 'other';
    await expectRefused(key('EdUnique', 'uniq:code'), 'hash', () => first.save());
    await expectRefused(key('EdUnique', 'uniq:code'), 'hash', async () => {
      const result = await EdUnique.saveMany([first]);
      if (result.failed.length > 0) throw result.failed[0].error;
    });
    await made.remove();
  });

  it('an update of an object removed meanwhile, `all` of another type', async () => {
    const made = await EdUnique.create({ code: 'removed', n: 5 });
    const stale = (await EdUnique.find(made.id))!;
    await made.remove();
    stale.n = 6;
    await expectRefused(key('EdUnique', 'all'), 'zset', () => stale.save());
    stale.note = 'only a plain field';
    stale.n = 5;
    await expectRefused(key('EdUnique', 'all'), 'zset', () => stale.save());
  });

  it('an update of a model whose objects never expire does not read `exp`: a string there is not in its way', async () => {
    const made = await EdPlain.create({ tag: 'a' });
    const other = await EdPlain.create({ tag: 'a' });
    await redis.raw.set(key('EdPlain', 'exp'), 'not a zset');
    made.tag = 'b';
    await made.save();
    // saveMany's update-many.lua as save.lua
    other.tag = 'c';
    const result = await EdPlain.saveMany([other]);
    expect(result.failed).toEqual([]);
    expect(await redis.raw.get(key('EdPlain', 'exp'))).toBe('not a zset');
    // (a query still checks `exp`: the string is taken away first)
    await redis.raw.del(key('EdPlain', 'exp'));
    expect(await EdPlain.findIds({ tag: 'b' })).toEqual([made.id]);
    expect(await EdPlain.findIds({ tag: 'c' })).toEqual([other.id]);
    expect(await EdPlain.findIds({ tag: 'a' })).toEqual([]);
    await EdPlain.removeMany([made.id, other.id]);
  });

  it('persist() of an object whose memo holds another type', async () => {
    const made = await EdExpirable.create({ kind: 'kept' });
    await made.expire(3600);
    await expectRefused(key('EdExpirable', `memo:${made.id}`), 'hash', () => made.persist());
    expect(await made.ttl()).toBeGreaterThan(0);
    await made.remove();
  });
});

describe('a model with more index entries than one number holds as bits', () => {
  it('a refused create takes back every entry it added, and a refused remove puts back every entry it removed', async () => {
    await expectRefused(key('EdWide', `idx:a${WIDE - 1}:v`), 'set', () => EdWide.create(wide('v')));
    const made = await EdWide.create(wide('r'));
    await expectRefused(key('EdWide', `idx:a${WIDE - 1}:r`), 'set', () => made.remove());
    expect(await EdWide.check()).toMatchObject({ ok: true });
    const before = await snapshot(redis.raw, redis.prefix);
    expect(Object.keys(before).filter((name) => name.includes('{EdWide}:idx:')).length).toBe(WIDE);
    await made.remove();
    expect(await EdWide.check()).toMatchObject({ ok: true });
  });
});
