import { ArgumentError, Attr, BaseEntity, Counter, DecodeError, Index, Model, NotFoundError } from '../../src';
import { useTestRedis } from '../support/test-redis';

@Model({ expirable: true })
class RangeCounter extends BaseEntity {
  @Attr() name?: string;
  @Counter() @Index() hits = 0;
}

/** A counter that scopes an index: the index key is named by the counter's stored text. */
@Model()
class LevelCounter extends BaseEntity {
  @Counter() level = 0;
  @Attr() @Index({ scope: 'level' }) at?: number;
}

const redis = useTestRedis();
const stored = (id: string) => redis.raw.hGet(`${redis.prefix}:{RangeCounter}:obj:${id}`, 'hits');

describe('counters at the edges of numbers', () => {
  it('add to -0', async () => {
    const c = await RangeCounter.create({ hits: -0 });
    expect(await c.increment('hits', 1)).toBe(1);
  });

  it('add like JavaScript doubles, exactly, beyond int64 and at 15+ digits', async () => {
    const big = await RangeCounter.create({ hits: 123456789012345 });
    expect(await big.increment('hits', 1)).toBe(123456789012346);
    expect((await RangeCounter.findOrFail(big.id)).hits).toBe(123456789012346);
    const huge = await RangeCounter.create({ hits: 2 ** 62 });
    expect(await huge.increment('hits', 2 ** 63)).toBe(2 ** 62 + 2 ** 63);
    expect((await RangeCounter.findOrFail(huge.id)).hits).toBe(2 ** 62 + 2 ** 63);
    const frac = await RangeCounter.create({ hits: 0.1 });
    expect(await frac.increment('hits', 0.2)).toBe(0.1 + 0.2);
    expect((await RangeCounter.findOrFail(frac.id)).hits).toBe(0.1 + 0.2);
  });

  it('store a sum as String(sum) writes it, as a create of that number would', async () => {
    const starts = [0, 0.1, -0.1, 1e-7, 123.456, 2 ** 53, 1e20, 1e21, -5e-324, 0.000001, 1 / 3];
    const amounts = [0.2, 1e-7, -1e-9, 0.5, 3, 1e21, 2.5e-8, 1e300, 12345.678];
    for (const start of starts) {
      for (const amount of amounts) {
        const counter = await RangeCounter.create({ hits: start });
        const sum = await counter.increment('hits', amount);
        expect({ start, amount, sum, text: await stored(counter.id) }).toEqual({ start, amount, sum: start + amount, text: String(start + amount) });
      }
    }
  });

  it('keep a scope named by a fractional counter reachable by an equality on it', async () => {
    const counter = await LevelCounter.create({ at: 5 });
    await counter.increment('level', 0.1);
    expect(await LevelCounter.findIds({ level: 0.1 }, { orderBy: { at: 'asc' } })).toEqual([counter.id]);
    expect(await LevelCounter.count({ level: 0.1, at: { gte: 0 } })).toBe(1);
  });

  it('refuse a sum that is not finite, and write nothing (index included)', async () => {
    const max = await RangeCounter.create({ hits: Number.MAX_VALUE });
    const before = await stored(max.id);
    await expect(max.increment('hits', Number.MAX_VALUE)).rejects.toBeInstanceOf(ArgumentError);
    expect(await stored(max.id)).toBe(before);
    expect(await RangeCounter.findIds({ hits: { gte: 1e308 } })).toEqual([max.id]);
    await expect(max.increment('hits', Infinity)).rejects.toBeInstanceOf(ArgumentError);
  });

  it('refuse to add to a stored value that is not a number (written by something else) with DecodeError, writing nothing', async () => {
    const counter = await RangeCounter.create({ hits: 5 });
    await redis.raw.hSet(`${redis.prefix}:{RangeCounter}:obj:${counter.id}`, 'hits', 'garbage');
    const error = await counter.increment('hits', 2).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DecodeError);
    expect(error).toMatchObject({ model: 'RangeCounter', id: counter.id, attribute: 'hits' });
    expect((error as Error).message).toContain('not a number: "garbage"; nothing was written');
    expect(await stored(counter.id)).toBe('garbage');
    expect(await RangeCounter.findIds({ hits: 5 })).toEqual([counter.id]); // its index entry is untouched too
    await redis.raw.hSet(`${redis.prefix}:{RangeCounter}:obj:${counter.id}`, 'hits', '5');
    expect(await counter.increment('hits', 2)).toBe(7);
  });

  it('take expiry times far ahead, and refuse impossible ones with a typed error', async () => {
    const c = await RangeCounter.create({ name: 'far' });
    await c.expire(1e11);
    expect(await c.ttl()).toBeGreaterThan(9.9e10);
    await expect(c.expire(1e13)).rejects.toBeInstanceOf(ArgumentError);
    await expect(RangeCounter.withLock('bad id', async () => 1)).rejects.toBeDefined();
    await expect(RangeCounter.withLock('404', async () => 1)).rejects.toBeInstanceOf(NotFoundError);
  });
});
