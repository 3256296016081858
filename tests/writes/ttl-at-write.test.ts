import { ArgumentError, Attr, BaseEntity, Index, Model, SchemaError, Unique } from '../../src';
import { scripts } from '../../src/store/scripts';
import { expectIndexesConsistent } from '../support/index-consistency';
import { useScriptCalls } from '../support/script-calls';
import { useTestRedis } from '../support/test-redis';

/**
 * A time to live given with a write: create(attributes, { ttl }), save({ ttl }), Model.update and
 * Model.upsert with { ttl }, on an expirable model, set in the same script as the write (hash TTL, `exp`
 * entry and memo together). A model whose objects never expire, or a ttl Redis cannot hold, is refused
 * before anything is written.
 */

@Model({ expirable: true })
class TwLog extends BaseEntity {
  @Attr() @Index() level!: string;
  @Attr() @Unique() ref?: string;
}

@Model({ ttl: 600 })
class TwSession extends BaseEntity {
  @Attr() @Index() user!: string;
}

@Model()
class TwPlain extends BaseEntity {
  @Attr() name!: string;
}

const redis = useTestRedis();
const calls = useScriptCalls(redis);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function keysOf(model: string): Promise<string[]> {
  return (await redis.raw.keys(`${redis.prefix}:{${model}}*`)).sort();
}

/** The object's time to live in ms as its hash and its `exp` entry hold it, and whether it has a memo. */
async function expiryOf(model: string, id: string): Promise<{ left: number; listed: boolean; memo: boolean }> {
  const base = `${redis.prefix}:{${model}}`;
  const [left, score, memo] = await Promise.all([
    redis.raw.pTTL(`${base}:obj:${id}`),
    redis.raw.zScore(`${base}:exp`, id),
    redis.raw.exists(`${base}:memo:${id}`),
  ]);
  return { left, listed: score !== null, memo: memo === 1 };
}

describe('a time to live given with a write', () => {
  it('create({ ttl }) gives the new object its time to live in the create script', async () => {
    calls.reset();
    const log = await TwLog.create({ level: 'info', ref: 'r1' }, { ttl: 30 });
    expect(calls.sent(scripts.save())).toBe(1);
    const expiry = await expiryOf('TwLog', log.id);
    expect(expiry.left).toBeGreaterThan(0);
    expect(expiry.left).toBeLessThanOrEqual(30_000);
    expect([expiry.listed, expiry.memo]).toEqual([true, true]);
    expect(await TwLog.create({ level: 'info' }).then((plain) => plain.ttl())).toBeNull();
    // a model's ttl is replaced by the one given
    const session = await TwSession.create({ user: 'ann' }, { ttl: 5 });
    expect((await session.ttl())!).toBeLessThanOrEqual(5);
    await expectIndexesConsistent(TwLog, redis.raw, redis.prefix);
    expect(await TwLog.check()).toMatchObject({ ok: true });
  });

  it('save({ ttl }) of a stored object writes its changes and replaces its time to live together', async () => {
    const log = await TwLog.create({ level: 'debug', ref: 'r2' });
    log.level = 'warn';
    calls.reset();
    await log.save({ ttl: 20 });
    expect(calls.sent(scripts.save())).toBe(1);
    expect((await expiryOf('TwLog', log.id)).left).toBeLessThanOrEqual(20_000);
    expect(await TwLog.findIds({ level: 'warn' })).toContain(log.id);
    // no change: the time to live alone
    await log.save({ ttl: 40 });
    expect((await expiryOf('TwLog', log.id)).left).toBeGreaterThan(20_000);
    // a save without one keeps it
    log.level = 'error';
    await log.save();
    expect((await expiryOf('TwLog', log.id)).left).toBeGreaterThan(20_000);
    await expectIndexesConsistent(TwLog, redis.raw, redis.prefix);
  });

  it('Model.update and Model.upsert take a ttl too', async () => {
    const log = await TwLog.create({ level: 'a' });
    await TwLog.update(log.id, { level: 'b' }, { ttl: 15 });
    expect(await expiryOf('TwLog', log.id)).toMatchObject({ listed: true, memo: true });
    expect((await log.ttl())!).toBeLessThanOrEqual(15);
    const created = await TwLog.upsert({ ref: 'up', level: 'c' }, { on: 'ref', ttl: 10 });
    expect((await created.entity.ttl())!).toBeLessThanOrEqual(10);
    const updated = await TwLog.upsert({ ref: 'up', level: 'd' }, { on: 'ref', ttl: 50 });
    expect([updated.created, (await updated.entity.ttl())! > 10]).toEqual([false, true]);
    await expectIndexesConsistent(TwLog, redis.raw, redis.prefix);
  });

  it('an object given a short ttl expires whole, with its entries', async () => {
    const log = await TwLog.create({ level: 'gone', ref: 'short' }, { ttl: 0.02 });
    await sleep(60);
    expect(await TwLog.find(log.id)).toBeNull();
    expect(await TwLog.sweep()).toBe(1);
    expect(await TwLog.findIds({ level: 'gone' })).toEqual([]);
    expect((await TwLog.create({ level: 'x', ref: 'short' })).ref).toBe('short');
    await expectIndexesConsistent(TwLog, redis.raw, redis.prefix);
  });

  it('refuses a ttl on a model whose objects never expire, or one Redis cannot hold, writing nothing', async () => {
    const plain = await TwPlain.create({ name: 'p' });
    const log = await TwLog.create({ level: 'keep' });
    const before = [...(await keysOf('TwPlain')), ...(await keysOf('TwLog'))];
    const schema = await TwPlain.create({ name: 'q' }, { ttl: 5 }).catch((caught: unknown) => caught);
    expect(schema).toBeInstanceOf(SchemaError);
    expect(String(schema)).toContain('objects of this model do not expire');
    plain.name = 'changed';
    await expect(plain.save({ ttl: 5 })).rejects.toThrow(SchemaError);
    await expect(TwPlain.update(plain.id, { name: 'r' }, { ttl: 5 })).rejects.toThrow(SchemaError);
    for (const ttl of [0, -1, Number.NaN, Infinity, 0.0001, '5', null]) {
      const bad = await TwLog.create({ level: 'bad' }, { ttl: ttl as number }).catch((caught: unknown) => caught);
      expect(bad).toBeInstanceOf(ArgumentError);
      expect(String(bad)).toContain('ttl must be a positive number of seconds');
    }
    log.level = 'bad';
    await expect(log.save({ ttl: -2 })).rejects.toThrow(ArgumentError);
    await expect(TwLog.saveMany([{ level: 'bad' }], { ttl: 5 } as never)).rejects.toThrow(ArgumentError);
    expect([...(await keysOf('TwPlain')), ...(await keysOf('TwLog'))]).toEqual(before);
    expect((await TwPlain.findOrFail(plain.id)).name).toBe('p');
  });
});
