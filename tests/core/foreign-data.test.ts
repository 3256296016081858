import {
  AfterRemove,
  Attr,
  BaseEntity,
  Codec,
  DecodeError,
  DynamicAttrs,
  Index,
  Model,
  QueryError,
  Unique,
  ValidationError,
  Version,
} from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * What other programs (or earlier versions of a model) leave in Redis, and codecs that misbehave: a stray hash
 * under an id a create takes, an object stored before `@Version` was added, stored numbers and timestamps out of
 * range, a custom codec whose encode gives no string. Each is either taken as the docs say or refused with a
 * typed error, and a failure leaves the instance as it was.
 */

@Model({ name: 'ForeignPlain' })
class Plain extends BaseEntity {
  @Attr() @Index() tag?: string;
  @Attr() note?: string;
}

@Model({ name: 'ForeignChecked' })
class Checked extends BaseEntity {
  @Attr() @Unique() code?: string;
  @Attr() note?: string;
}

@Model({ name: 'ForeignVersioned' })
class Versioned extends BaseEntity {
  @Attr() title?: string;
  @Version() version?: number;
}

@Model({ name: 'ForeignValues' })
class Values extends BaseEntity {
  @Attr() a?: string;
  @Attr() n?: number;
  @Attr() at?: Date;
  @Attr() z?: string;
}

const giveNoString: Codec<string> = { encode: (value) => (value === 'none' ? (undefined as never) : String(value)), decode: (raw) => raw };

@Model({ name: 'ForeignCodec' })
class Coded extends BaseEntity {
  @Attr({ codec: giveNoString }) @Index() label?: string;
}

const passThrough: Codec<string> = { encode: (value) => value, decode: (raw) => raw };

@Model({ name: 'ForeignPassThrough' })
class PassedThrough extends BaseEntity {
  @Attr({ codec: passThrough }) @Index() label?: string;
}

@Model({ name: 'ForeignDynamic' })
class Dynamic extends BaseEntity {
  @Attr() name?: string;
  @Version() version?: number;
  @DynamicAttrs() extra: Record<string, string | number | boolean> = {};
}

const removedIds: Array<string | undefined> = [];
@Model({ name: 'ForeignHooked' })
class Hooked extends BaseEntity {
  @Attr() name?: string;

  @AfterRemove() fail(): void {
    removedIds.push(this.id);
    throw new Error('after-remove failed');
  }
}

const redis = useTestRedis();
const key = (model: string, id: string) => `${redis.prefix}:{${model}}:obj:${id}`;

describe('a stray hash under the id a create takes', () => {
  // written by another program, with a field the model does not set and a TTL: merged into, it would keep the
  // field and make the new object vanish while `all` still lists it
  async function strayAt(model: string, id: string): Promise<void> {
    await redis.raw.hSet(key(model, id), { note: 'stray', '#id': id });
    await redis.raw.pExpire(key(model, id), 60_000);
  }

  it('is replaced by every kind of create: create-plain.lua, save.lua, and both bulk paths', async () => {
    await strayAt('ForeignPlain', '1');
    await strayAt('ForeignChecked', '1');
    await strayAt('ForeignPlain', '3');
    await strayAt('ForeignChecked', '3');
    const single = await Plain.create({ tag: 't' });
    const checked = await Checked.create({ code: 'c1' });
    await Plain.create({ tag: 'u' }); // id 2
    await Checked.create({ code: 'c2' });
    const bulk = await Plain.saveMany([{ tag: 'v' }]); // the MULTI of a plain create: id 3
    const bulkChecked = await Checked.saveMany([{ code: 'c3' }]); // save-many.lua: id 3
    for (const [model, id] of [
      ['ForeignPlain', single.id],
      ['ForeignChecked', checked.id],
      ['ForeignPlain', bulk.saved[0].id],
      ['ForeignChecked', bulkChecked.saved[0].id],
    ]) {
      expect({ id, note: await redis.raw.hGet(key(model, id), 'note'), ttl: await redis.raw.pTTL(key(model, id)) }).toEqual({
        id,
        note: null,
        ttl: -1,
      });
    }
    expect((await Plain.findOrFail('3')).note).toBeUndefined();
    await expectIndexesConsistent(Plain, redis.raw, redis.prefix);
  });
});

describe('an object stored before @Version was added (no version field)', () => {
  it('saves: an update sets version 1, a save without changes writes and checks nothing', async () => {
    const stored = await Versioned.create({ title: 'old' });
    await redis.raw.hDel(key('ForeignVersioned', stored.id), 'version');
    const loaded = (await Versioned.find(stored.id))!;
    expect(loaded.version).toBeUndefined();
    await loaded.save();
    expect(loaded.version).toBeUndefined();
    loaded.title = 'new';
    await loaded.save();
    expect(loaded.version).toBe(1);
    expect(await redis.raw.hGetAll(key('ForeignVersioned', stored.id))).toMatchObject({ title: 'new', version: '1' });
  });
});

describe('stored values their type cannot hold', () => {
  it('are DecodeErrors, not Infinity or an Invalid Date', async () => {
    const item = await Values.create({ a: 'a' });
    await redis.raw.hSet(key('ForeignValues', item.id), 'n', '1e+400');
    await expect(Values.find(item.id)).rejects.toThrow(new DecodeError('ForeignValues', item.id, 'n', 'not a finite number: 1e+400'));
    await redis.raw.hSet(key('ForeignValues', item.id), { n: '1', at: '9000000000000000' });
    await expect(Values.find(item.id)).rejects.toThrow(DecodeError);
  });

  it('leave a reload with nothing changed: the instance keeps its unsaved values and its snapshot', async () => {
    const item = await Values.create({ a: 'a', n: 1, z: 'z' });
    item.a = 'unsaved a';
    item.z = 'unsaved z';
    await redis.raw.hSet(key('ForeignValues', item.id), 'n', 'not a number');
    await expect(item.reload()).rejects.toThrow(DecodeError);
    expect([item.a, item.n, item.z]).toEqual(['unsaved a', 1, 'unsaved z']);
    // the snapshot is the one of the create: the save writes a and z, and leaves the unreadable n alone
    await redis.raw.hSet(key('ForeignValues', item.id), 'n', '2');
    await item.save();
    expect(await redis.raw.hGetAll(key('ForeignValues', item.id))).toMatchObject({ a: 'unsaved a', n: '2', z: 'unsaved z' });
  });
});

describe('a custom codec whose encode gives no string', () => {
  it('is a ValidationError on a save and a QueryError in a where, with nothing written', async () => {
    const error = await Coded.create({ label: 'none' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/label its codec's encode gave undefined, not a string/);
    expect(await Coded.count()).toBe(0);
    await expect(Coded.findIds({ label: 'none' })).rejects.toThrow(QueryError);
  });
});

describe('a custom codec whose encode gives a lone surrogate', () => {
  it('is a ValidationError (isWellFormed) on a save and a QueryError in a where, rather than U+FFFD stored', async () => {
    const error = await PassedThrough.create({ label: 'a\uD800' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(Object.keys((error as ValidationError).errors[0].constraints!)).toEqual(['isWellFormed']);
    expect(await PassedThrough.count()).toBe(0);
    await expect(PassedThrough.findIds({ label: 'a\uD800' })).rejects.toThrow(QueryError);
  });
});

describe('dynamic fields the bag cannot read (an unknown type tag, a key it refuses)', () => {
  it('are left out of the bag, and a save neither rewrites nor removes them', async () => {
    const item = await Dynamic.create({ name: 'tagged', extra: { a: 1, b: 'kept' } });
    const unreadable = { '~x': 'zzz', '~y': 'n', '~z': 'nabc', '~w': 'b2', '~': 'sempty key', '~__proto__': 's' };
    await redis.raw.hSet(key('ForeignDynamic', item.id), unreadable);
    const loaded = await Dynamic.findOrFail(item.id);
    expect(loaded.extra).toEqual({ a: 1, b: 'kept' });
    loaded.extra.a = 2;
    delete loaded.extra.b;
    await loaded.save();
    expect(await redis.raw.hGetAll(key('ForeignDynamic', item.id))).toEqual({
      '#id': item.id,
      name: 'tagged',
      version: '2',
      '~a': 'n2',
      ...unreadable,
    });
  });

  it('are replaced when the bag is given the key', async () => {
    const item = await Dynamic.create({ name: 'given' });
    await redis.raw.hSet(key('ForeignDynamic', item.id), '~x', 'zzz');
    const loaded = await Dynamic.findOrFail(item.id);
    loaded.extra.x = 'mine';
    await loaded.save();
    expect(await redis.raw.hGet(key('ForeignDynamic', item.id), '~x')).toBe('smine');
    expect((await Dynamic.findOrFail(item.id)).extra).toEqual({ x: 'mine' });
  });
});

describe('an AfterRemove hook that throws', () => {
  it('leaves the instance removed, keeping its id as any remove does (the hook still saw it)', async () => {
    const item = await Hooked.create({ name: 'x' });
    const id = item.id;
    await expect(item.remove()).rejects.toThrow('after-remove failed');
    expect(removedIds).toEqual([id]);
    expect([item.id, item.isPersisted(), item.isRemoved()]).toEqual([id, false, true]);
  });
});
