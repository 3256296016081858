import { Attr, BaseEntity, Index, Model, NotFoundError, SchemaError, Unique } from '../../src';
import { keysUnder, useTestRedis } from '../support/test-redis';

@Model({ ttl: 1 })
class ExpLog extends BaseEntity {
  @Attr() @Index() level?: string;
  @Attr() userId?: string;
  @Attr() @Index({ scope: 'userId' }) createdAt?: Date;
  @Attr() @Unique() token?: string;
}

@Model({ expirable: true })
class ExpNote extends BaseEntity {
  @Attr() @Index() tag?: string;
}

@Model()
class ExpKept extends BaseEntity {
  @Attr() @Index() tag?: string;
}

const redis = useTestRedis();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('objects that expire', () => {
  it('are invisible at once when their time comes, and leave no key after the sweep', async () => {
    const log = await ExpLog.create({ level: 'warn', userId: 'u1', createdAt: new Date(5), token: 'tok' });
    const ttl = await log.ttl();
    expect(ttl).toBeGreaterThan(0.5);
    expect(ttl).toBeLessThanOrEqual(1);
    log.level = 'error';
    await log.save(); // saving keeps the TTL
    expect(await log.ttl()).toBeGreaterThan(0);
    expect(await ExpLog.count()).toBe(1);

    await sleep(1200);
    expect(await ExpLog.find(log.id)).toBeNull();
    expect(await ExpLog.findMany([log.id])).toEqual([null]);
    expect(await ExpLog.exists(log.id)).toBe(false);
    expect(await ExpLog.count()).toBe(0);
    // the memo still knows the entries, until the sweep
    expect(await redis.raw.exists(`${redis.prefix}:{ExpLog}:memo:${log.id}`)).toBe(1);

    expect(await ExpLog.sweep()).toBe(1);
    const left = await keysUnder(redis.raw, redis.prefix);
    expect(left.filter((key) => key.includes('{ExpLog}'))).toEqual([`${redis.prefix}:{ExpLog}:seq`]);
  });

  it('are dropped from query results and counts without a sweep', async () => {
    const a = await ExpLog.create({ level: 'info', userId: 'u2', createdAt: new Date(1) });
    await sleep(1100);
    // b is checked at once, well within its 1 s, however slow the machine is
    const b = await ExpLog.create({ level: 'info', userId: 'u2', createdAt: new Date(2) });
    expect((await ExpLog.findBy({ level: 'info' })).map((l) => l.id)).toEqual([b.id]);
    expect(await ExpLog.count({ userId: 'u2' })).toBe(1);
    expect(await ExpLog.find(a.id)).toBeNull();
    await b.remove();
  });

  it('free their unique values once expired', async () => {
    await ExpLog.create({ token: 'reused' });
    await sleep(1100);
    const again = await ExpLog.create({ token: 'reused' });
    expect(await ExpLog.findOneBy({ token: 'reused' })).not.toBeNull();
    await again.remove();
  });

  it('can be given a TTL, have it removed, and cannot be updated once expired', async () => {
    const note = await ExpNote.create({ tag: 'x' });
    expect(await note.ttl()).toBeNull();
    await note.expire(0.5);
    expect(await note.ttl()).toBeGreaterThan(0);
    await note.persist();
    expect(await note.ttl()).toBeNull();
    await note.expire(0.3);
    await sleep(450);
    note.tag = 'y';
    await expect(note.save()).rejects.toBeInstanceOf(NotFoundError);
    await expect(note.ttl()).rejects.toBeInstanceOf(NotFoundError);
    expect(await ExpNote.count({ tag: 'x' })).toBe(0);
    const left = await keysUnder(redis.raw, redis.prefix);
    expect(left.filter((key) => key.includes('{ExpNote}'))).toEqual([`${redis.prefix}:{ExpNote}:seq`]);
  });
});

describe('objects that had no value in an index when their time to live was set', () => {
  it('keep in their memo the entries a later save gives them, so that their sweep removes those too', async () => {
    const log = await ExpLog.create({ userId: undefined }); // a ttl, no value: in the indexes' nil sets only
    const note = await ExpNote.create({});
    await note.expire(0.5);
    const memos = [`${redis.prefix}:{ExpLog}:memo:${log.id}`, `${redis.prefix}:{ExpNote}:memo:${note.id}`];
    const entries = (await Promise.all(memos.map((memo) => redis.raw.hKeys(memo)))).flat();
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.filter((entry) => !entry.includes('nil:'))).toEqual([]);
    log.level = 'late';
    await log.save();
    note.tag = 'late';
    await note.save();
    expect((await ExpLog.check()).violations).toEqual([]);
    expect((await ExpNote.check()).violations).toEqual([]);

    await sleep(1100);
    expect(await ExpLog.sweep()).toBe(1);
    expect(await ExpNote.sweep()).toBe(1);
    const left = await keysUnder(redis.raw, redis.prefix);
    expect(left.filter((key) => key.includes('{ExpLog}') || key.includes('{ExpNote}'))).toEqual([
      `${redis.prefix}:{ExpLog}:seq`,
      `${redis.prefix}:{ExpNote}:seq`,
    ]);
  });
});

describe('expire, persist and ttl of an instance', () => {
  it('wait for its save or remove under way, as save() and remove() do', async () => {
    const note = ExpNote.build({ tag: 'queued' });
    void note.save();
    await note.expire(30); // the object the save creates
    const left = await note.ttl();
    expect(left).toBeGreaterThan(29);
    void note.persist();
    expect(await note.ttl()).toBeNull();
    const removing = note.remove();
    await expect(note.ttl()).rejects.toThrow(/not saved/);
    await removing;
    expect(await ExpNote.find(note.id ?? 'none')).toBeNull();
  });
});

describe('a model whose objects do not expire', () => {
  it('refuses expire() with a SchemaError that names the fix, and writes nothing', async () => {
    const kept = await ExpKept.create({ tag: 'a' });
    const before = await keysUnder(redis.raw, `${redis.prefix}:{ExpKept}`);
    const error = await kept.expire(10).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toMatch(
      /ExpKept: objects of this model do not expire; declare @Model\(\{ expirable: true \}\) or a ttl/,
    );
    expect(await redis.raw.pTTL(`${redis.prefix}:{ExpKept}:obj:${kept.id}`)).toBe(-1);
    expect(await keysUnder(redis.raw, `${redis.prefix}:{ExpKept}`)).toEqual(before);
    expect(await kept.ttl()).toBeNull();
    expect(await ExpKept.count()).toBe(1);
    await kept.remove();
    expect(await ExpKept.count()).toBe(0);
  });

  it('cannot be declared with a ttl and expirable: false, nor with an expirable that is not a boolean', () => {
    expect(() => {
      @Model({ ttl: 5, expirable: false })
      class ExpContradiction extends BaseEntity {
        @Attr() tag?: string;
      }
      return ExpContradiction;
    }).toThrow(new SchemaError('ExpContradiction: a model with a ttl is expirable; drop expirable: false'));
    expect(() => {
      @Model({ expirable: 'yes' as unknown as boolean })
      class ExpNotBoolean extends BaseEntity {
        @Attr() tag?: string;
      }
      return ExpNotBoolean;
    }).toThrow(new SchemaError('ExpNotBoolean: expirable must be true or false'));
  });
});
