import { ArgumentError, Attr, BaseEntity, BelongsTo, Counter, DecodeError, Index, Model, SchemaError } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * Objects whose time has come are invisible at once, before any sweep: they take no place in a cap, restrict no
 * removal of their parent, are reported missing by removeMany, and creates sweep them. Times to live are taken
 * to the millisecond whatever the binary form of the seconds given. A counter holding text that find() cannot
 * read is a DecodeError for increment() too.
 */

@Model({ name: 'TopExpiring', expirable: true, cap: { by: 'score', keep: 3 } })
class Top extends BaseEntity {
  @Attr() @Index() score?: number;
  @Counter() bonus = 0;
}

@Model({ name: 'SweptOnCreate', expirable: true })
class Swept extends BaseEntity {
  @Attr() tag?: string;
}

@Model({ name: 'ExpiringIndexed', expirable: true })
class Indexed extends BaseEntity {
  @Attr() @Index() tag?: string;
}

@Model({ name: 'RestrictParent', group: 'restrict' })
class Parent extends BaseEntity {
  @Attr() name?: string;
}

@Model({ name: 'RestrictChild', group: 'restrict', ttl: 3600 })
class Child extends BaseEntity {
  @Attr() name?: string;
  @BelongsTo(() => Parent) parent!: BelongsTo<Parent>;
  parentId?: string;
}

/** A self-relation without its HasMany: restrict. */
@Model({ name: 'SelfNode', group: 'restrict' })
class SelfNode extends BaseEntity {
  @Attr() name?: string;
  @BelongsTo(() => SelfNode) up!: BelongsTo<SelfNode>;
  upId?: string;
}

@Model({ name: 'CountedExpiring', expirable: true })
class Counted extends BaseEntity {
  @Counter() hits = 0;
}

const redis = useTestRedis();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const all = (model: string) => redis.raw.zCard(`${redis.prefix}:{${model}}:all`);

it('a capped model keeps its top live objects: an expired one takes no place (create, update, increment)', async () => {
  const [best, second, third] = await Promise.all([10, 9, 8].map((score) => Top.create({ score })));
  await best.expire(0.001);
  await sleep(20);
  const fourth = await Top.create({ score: 1 });
  expect((await Top.findBy({}, { orderBy: { score: 'desc' } })).map((item) => item.id)).toEqual([second.id, third.id, fourth.id]);
  expect(await all('TopExpiring')).toBe(3);
  await second.expire(0.001);
  await sleep(20);
  fourth.score = 20;
  await fourth.save();
  await (await Top.create({ score: 2 })).increment('bonus');
  expect((await Top.findBy({}, { orderBy: { score: 'desc' } })).map((item) => item.score)).toEqual([20, 8, 2]);
});

it('a create of an expirable model without a ttl sweeps up to 10 objects whose time has come', async () => {
  for (let i = 0; i < 4; i++) await (await Swept.create({ tag: 'x' })).expire(0.001);
  const kept = await Indexed.create({ tag: 'x' });
  await sleep(20);
  await Swept.create({ tag: 'y' });
  expect(await all('SweptOnCreate')).toBe(1);
  // and in bulk
  await (await Indexed.findOrFail(kept.id)).expire(0.001);
  await sleep(20);
  await Indexed.saveMany([{ tag: 'z' }]);
  expect(await all('ExpiringIndexed')).toBe(1);
});

it('removeMany reports an object whose time has come as missing, and removes what is left of it', async () => {
  const [gone, live] = await Promise.all([Indexed.create({ tag: 'm' }), Indexed.create({ tag: 'm' })]);
  await gone.expire(0.001);
  await sleep(20);
  const result = await Indexed.removeMany([gone.id, live.id]);
  expect([result.removed, result.missing]).toEqual([[live.id], [gone.id]]);
  expect(await redis.raw.sCard(`${redis.prefix}:{ExpiringIndexed}:idx:tag:m`)).toBe(0);
  const plain = await Swept.create({ tag: 'p' });
  await plain.expire(0.001);
  await sleep(20);
  expect((await Swept.removeMany([plain.id])).missing).toEqual([plain.id]);
});

it('restrict: a child whose time has come, or the object itself as its own parent, does not refuse the removal', async () => {
  const parent = await Parent.create({ name: 'p' });
  const child = Child.build({ name: 'c' });
  child.parent.set(parent);
  await child.save();
  await child.expire(0.001);
  await sleep(20);
  const parentId = parent.id;
  await parent.remove();
  expect(await Parent.exists(parentId)).toBe(false);

  const loop = await SelfNode.create({ name: 'self' });
  loop.up.set(loop);
  await loop.save();
  await loop.remove();
  expect(await SelfNode.count()).toBe(0);
  // another live child still refuses it
  const root = await SelfNode.create({ name: 'root' });
  const leaf = SelfNode.build({ name: 'leaf' });
  leaf.up.set(root);
  await leaf.save();
  await expect(root.remove()).rejects.toThrow(/belong to it/);
});

it('takes times to live to the millisecond whatever their binary form, and refuses finer ones', async () => {
  const item = await Swept.create({ tag: 'ttl' });
  for (const seconds of [1.001, 1.005, 2.03, 0.05 + 0.005, 100.001]) await item.expire(seconds);
  expect(await item.ttl()).toBeCloseTo(100.001, 0);
  await expect(item.expire(1.0005)).rejects.toThrow(ArgumentError);
  expect(() => {
    @Model({ name: 'FineTtl', ttl: 1.001 })
    class FineTtl extends BaseEntity {
      @Attr() a?: string;
    }
    return FineTtl;
  }).not.toThrow();
  expect(() => {
    @Model({ name: 'TooFineTtl', ttl: 1.0001 })
    class TooFineTtl extends BaseEntity {
      @Attr() a?: string;
    }
    return TooFineTtl;
  }).toThrow(SchemaError);
});

it.each(['0x10', ' 7', 'nan', 'inf', 'Infinity', '1e400'])(
  'increment of a counter holding %p (written by another program) is a DecodeError, writing nothing',
  async (text) => {
    const item = await Counted.create({});
    await redis.raw.hSet(`${redis.prefix}:{CountedExpiring}:obj:${item.id}`, 'hits', text);
    await expect(item.increment('hits')).rejects.toThrow(DecodeError);
    await expect(Counted.find(item.id)).rejects.toThrow(DecodeError);
    expect(await redis.raw.hGet(`${redis.prefix}:{CountedExpiring}:obj:${item.id}`, 'hits')).toBe(text);
  },
);

it('refuses a group named like a model without one: their keys would overlap', () => {
  expect(() => {
    @Model({ name: 'Journal' })
    class Journal extends BaseEntity {
      @Attr() a?: string;
    }
    @Model({ name: 'Entry', group: 'Journal' })
    class Entry extends BaseEntity {
      @Attr() a?: string;
    }
    return [Journal, Entry];
  }).toThrow(
    new SchemaError(
      'Entry: model Journal has no group and group Journal (of model Entry) has its name: their keys would overlap; rename one',
    ),
  );
});
