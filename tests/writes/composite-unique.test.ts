import { Attr, BaseEntity, BelongsTo, HasMany, Index, Model, SchemaError, Unique, UniqueConstraintError } from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { expectRelationsConsistent } from '../support/relation-consistency';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * Composite uniques, `@Unique(['userId', 'channelId'])` on the class: no two live objects hold the same values of
 * all the attributes together. Enforced in the write's own script on create, save, saveMany and the relation
 * rules that change a part; an object missing a part claims nothing; check() and repair() know the claims.
 */

@Model()
@Unique(['userId', 'channelId'])
class CuSubscription extends BaseEntity {
  @Attr() @Index() userId?: number;
  @Attr() channelId?: string;
  @Attr() note?: string;
}

@Model({ group: 'cuchat' })
class CuUser extends BaseEntity {
  @Attr() name?: string;
  @HasMany(() => CuMember, { inverse: 'user', onDelete: 'nullify' }) members!: HasMany<CuMember>;
}

@Model({ group: 'cuchat' })
@Unique(['userId', 'room'])
class CuMember extends BaseEntity {
  @Attr() room?: string;
  @BelongsTo(() => CuUser) user!: BelongsTo<CuUser>;
  userId?: string;
}

@Model({ ttl: 3600 })
@Unique(['day', 'user'])
class CuVisit extends BaseEntity {
  @Attr() day?: string;
  @Attr() user?: number;
}

const redis = useTestRedis();
const uniqKey = (model: string, name: string) => `${redis.prefix}:{${model}}:uniq:${name}`;

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

async function snapshot(base: string): Promise<Record<string, unknown>> {
  const state: Record<string, unknown> = {};
  for (const key of await keysUnder(redis.raw, base)) {
    const type = await redis.raw.type(key);
    state[key] = type === 'hash' ? await redis.raw.hGetAll(key) : type === 'zset' ? await redis.raw.zRange(key, 0, -1) : type;
  }
  return state;
}

async function expectClean(model: typeof CuSubscription | typeof CuMember | typeof CuVisit): Promise<void> {
  const result = await model.check();
  expect(result.violations).toEqual([]);
  await expectIndexesConsistent(model, redis.raw, redis.prefix);
}

describe('composite uniques', () => {
  it('refuses a second object with the same values of every part, naming each attribute and value', async () => {
    await CuSubscription.create({ userId: 1, channelId: 'c1' });
    await CuSubscription.create({ userId: 1, channelId: 'c2' });
    await CuSubscription.create({ userId: 2, channelId: 'c1' });
    const before = await snapshot(`${redis.prefix}:{CuSubscription}`);
    const error = await caught(CuSubscription.create({ userId: 1, channelId: 'c1', note: 'again' }));
    expect(error).toBeInstanceOf(UniqueConstraintError);
    expect(error).toMatchObject({
      model: 'CuSubscription',
      attribute: 'userId+channelId',
      attributes: ['userId', 'channelId'],
      values: [1, 'c1'],
    });
    expect((error as Error).message).toBe('CuSubscription.(userId, channelId) must be unique together: userId 1, channelId "c1" is taken');
    expect(await snapshot(`${redis.prefix}:{CuSubscription}`)).toEqual(before);
    expect(await CuSubscription.count({ userId: 1 })).toBe(2);
    await expectClean(CuSubscription);
  });

  it('an object missing a part claims nothing, as SQL does with NULL', async () => {
    await CuSubscription.create({ userId: 7 });
    await CuSubscription.create({ userId: 7 });
    await CuSubscription.create({ channelId: 'c7' });
    await CuSubscription.create({ channelId: 'c7' });
    expect(await redis.raw.hLen(uniqKey('CuSubscription', 'userId+channelId'))).toBe(3);
    await expectClean(CuSubscription);
  });

  it('a change of any part moves the claim; a refused change writes nothing', async () => {
    const a = await CuSubscription.create({ userId: 10, channelId: 'x' });
    const b = await CuSubscription.create({ userId: 11, channelId: 'x' });
    b.userId = 10;
    const error = await caught(b.save());
    expect(error).toMatchObject({ attributes: ['userId', 'channelId'], values: [10, 'x'] });
    expect((await CuSubscription.findOrFail(b.id)).userId).toBe(11);
    a.channelId = 'y';
    await a.save();
    await b.save(); // (10, x) is free now
    expect((await CuSubscription.findOrFail(b.id)).userId).toBe(10);
    await expect(CuSubscription.create({ userId: 10, channelId: 'y' })).rejects.toBeInstanceOf(UniqueConstraintError);
    // a part cleared: the object claims nothing, and its old value is free
    a.channelId = undefined;
    await a.save();
    await CuSubscription.create({ userId: 10, channelId: 'y' });
    await expectClean(CuSubscription);
  });

  it('saveMany refuses duplicates within the call and against stored objects, item by item', async () => {
    await CuSubscription.create({ userId: 20, channelId: 'm' });
    const items = [
      CuSubscription.build({ userId: 20, channelId: 'm' }),
      CuSubscription.build({ userId: 20, channelId: 'n' }),
      CuSubscription.build({ userId: 20, channelId: 'n' }),
      CuSubscription.build({ userId: 21, channelId: 'm' }),
    ];
    const result = await CuSubscription.saveMany(items);
    expect(result.failed.map(({ index, error }) => [index, error.constructor.name])).toEqual([
      [0, 'UniqueConstraintError'],
      [2, 'UniqueConstraintError'],
    ]);
    expect(await CuSubscription.count({ userId: 20 })).toBe(2);
    // updates through saveMany: a swap of parts across two objects
    const [n, m] = [items[1], items[3]];
    n.channelId = 'o';
    m.userId = 20;
    m.channelId = 'n';
    await CuSubscription.saveMany([n, m]);
    expect((await CuSubscription.findBy({ userId: 20 })).map((s) => s.channelId).sort()).toEqual(['m', 'n', 'o']);
    await expectClean(CuSubscription);
  });

  it('remove frees the combined value', async () => {
    const s = await CuSubscription.create({ userId: 30, channelId: 'r' });
    await s.remove();
    await CuSubscription.create({ userId: 30, channelId: 'r' });
    await CuSubscription.removeMany(await CuSubscription.findIds({ userId: 30 }));
    await CuSubscription.create({ userId: 30, channelId: 'r' });
    await expectClean(CuSubscription);
  });

  it('number parts compare as unique values (-0 is 0), and parts never run into each other', async () => {
    await CuSubscription.create({ userId: 0, channelId: 'z' });
    await expect(CuSubscription.create({ userId: -0, channelId: 'z' })).rejects.toBeInstanceOf(UniqueConstraintError);
    await CuVisit.create({ day: 'a\0', user: 1 });
    await CuVisit.create({ day: 'a', user: 1 });
    await CuVisit.create({ day: 'a\0\0', user: 1 });
    await expect(CuVisit.create({ day: 'a\0', user: 1 })).rejects.toBeInstanceOf(UniqueConstraintError);
    await expectClean(CuSubscription);
    await expectClean(CuVisit);
  });

  it('objects that expire keep their claim in their memo, and release it when removed', async () => {
    const visit = await CuVisit.create({ day: 'mon', user: 5 });
    const memo = await redis.raw.hGetAll(`${redis.prefix}:{CuVisit}:memo:${visit.id}`);
    expect(Object.keys(memo)).toEqual([`U${uniqKey('CuVisit', 'day+user')}`]);
    await visit.remove();
    await CuVisit.create({ day: 'mon', user: 5 });
    await expectClean(CuVisit);
  });

  it("a relation rule that clears a part (onDelete 'nullify') releases the claim in the same script", async () => {
    const ann = await CuUser.create({ name: 'ann' });
    const bob = await CuUser.create({ name: 'bob' });
    const member = await CuMember.create({ room: 'lobby', userId: ann.id } as never);
    await expect(CuMember.create({ room: 'lobby', userId: ann.id } as never)).rejects.toBeInstanceOf(UniqueConstraintError);
    await ann.remove();
    expect((await CuMember.findOrFail(member.id)).userId).toBeUndefined();
    expect(await redis.raw.hLen(`${redis.prefix}:{cuchat}:CuMember:uniq:userId+room`)).toBe(0);
    await CuMember.create({ room: 'lobby', userId: bob.id } as never);
    await expect(CuMember.create({ room: 'lobby', userId: bob.id } as never)).rejects.toBeInstanceOf(UniqueConstraintError);
    await expectClean(CuMember);
    await expectRelationsConsistent([CuUser, CuMember], redis.raw, redis.prefix);
  });
});

describe('check() and repair() of composite uniques', () => {
  const key = () => uniqKey('CuSubscription', 'userId+channelId');

  it('find a missing, a stale and a foreign claim, and repair them', async () => {
    const s = await CuSubscription.create({ userId: 40, channelId: 'k' });
    const t = await CuSubscription.create({ userId: 41, channelId: 'k' });
    const fields = await redis.raw.hGetAll(key());
    const held = Object.keys(fields).find((field) => fields[field] === s.id)!;
    await redis.raw.hDel(key(), held); // missing
    await redis.raw.hSet(key(), '99\0\0gone', t.id); // stale: t does not hold it
    await redis.raw.hSet(key(), '98\0\0none', '12345'); // foreign: no such object
    const found = await CuSubscription.check();
    expect(found.ok).toBe(false);
    expect(found.violations.map((v) => v.kind).sort()).toEqual(['missingEntry', 'uniqueOwner', 'uniqueOwner']);
    const repaired = await CuSubscription.repair();
    expect(repaired.left).toEqual([]);
    expect(await redis.raw.hGet(key(), held)).toBe(s.id);
    await expectClean(CuSubscription);
  });

  it('the stored definition names the composite unique', async () => {
    const stored = JSON.parse((await redis.raw.hGet(`${redis.prefix}#models`, 'CuSubscription'))!);
    expect(stored.indexes).toContainEqual({ kind: 'unique', attribute: 'userId+channelId', scope: null, caseInsensitive: false });
  });
});

describe('definition errors', () => {
  it('an unknown attribute, a json attribute, a counter, and @Unique above @Model are SchemaErrors', () => {
    expect(() => {
      @Model()
      @Unique(['a', 'missing' as 'a'])
      class CuBad1 extends BaseEntity {
        @Attr() a?: string;
      }
      return CuBad1;
    }).toThrow(new SchemaError('CuBad1: @Unique(["a", "missing"]): "missing" is not an attribute of the model (declare it with @Attr())'));
    expect(() => {
      @Model()
      @Unique(['a', 'tags'])
      class CuBad2 extends BaseEntity {
        @Attr() a?: string;
        @Attr({ type: 'json' }) tags?: string[];
      }
      return CuBad2;
    }).toThrow(/tags is a json attribute/);
    expect(() => {
      @Unique(['a', 'b'])
      @Model()
      class CuBad3 extends BaseEntity {
        @Attr() a?: string;
        @Attr() b?: string;
      }
      return CuBad3;
    }).toThrow(/goes under @Model\(\)/);
    expect(() => Unique([] as unknown as ['a'])(class {} as never)).toThrow(SchemaError);
  });
});
