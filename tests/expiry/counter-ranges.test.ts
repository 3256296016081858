import { readFileSync } from 'fs';
import { join } from 'path';
import { ArgumentError, Attr, BaseEntity, Counter, DecodeError, Index, Model, NotFoundError } from '../../src';
import { numberCodec } from '../../src/codecs/number-codec';
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

/** 2^k for every k from -1074 (the least denormal) to 1023, the greatest power of two below Number.MAX_VALUE. */
const powersOfTwo = Array.from({ length: 2098 }, (_, i) => 2 ** (i - 1074));

/** The double whose IEEE 754 bits are `hi`:`lo`. */
function fromBits(hi: number, lo: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setUint32(0, hi >>> 0);
  view.setUint32(4, lo >>> 0);
  return view.getFloat64(0);
}

/** The double next to x, away from zero (step 1n; x finite, not the greatest) or towards it (step -1n; x not 0). */
function nextDouble(x: number, step: bigint): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) + step);
  return view.getFloat64(0);
}
const nextAway = (x: number) => nextDouble(x, 1n);
const nextToward = (x: number) => nextDouble(x, -1n);

/** Uniform 32-bit numbers from a seed (mulberry32), so that a failing value can be found again. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

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
        expect({ start, amount, sum, text: await stored(counter.id) }).toEqual({
          start,
          amount,
          sum: start + amount,
          text: String(start + amount),
        });
      }
    }
  });

  it('store String(sum) where the nearest rounding to the fewest digits does not read back (powers of two)', async () => {
    for (const [start, amount] of [
      [0, 2 ** -44],
      [2 ** 88, 2 ** 88],
      [0, 2 ** 122],
      [0, -(2 ** 89)],
    ]) {
      const counter = await RangeCounter.create({ hits: start });
      const sum = await counter.increment('hits', amount);
      expect({ start, amount, sum, text: await stored(counter.id) }).toEqual({
        start,
        amount,
        sum: start + amount,
        text: String(start + amount),
      });
    }
  });

  it('store every power of two reached by increment as String() writes it, either sign', async () => {
    const amounts = [...powersOfTwo, ...powersOfTwo.map((x) => -x)];
    const wrong: Array<{ amount: number; text: string | null }> = [];
    for (let i = 0; i < amounts.length; i += 200) {
      await Promise.all(
        amounts.slice(i, i + 200).map(async (amount) => {
          const counter = await RangeCounter.create({ hits: 0 });
          const sum = await counter.increment('hits', amount);
          const text = await stored(counter.id);
          if (sum !== amount || text !== String(amount)) wrong.push({ amount, text });
        }),
      );
    }
    expect(wrong).toEqual([]);
  });

  it('keep a counter that reaches 2^89 by increment in the scope a create of 2^89 is in', async () => {
    const made = await LevelCounter.create({ level: 2 ** 89, at: 1 });
    const grown = await LevelCounter.create({ level: 2 ** 88, at: 2 });
    expect(await grown.increment('level', 2 ** 88)).toBe(2 ** 89);
    expect(await LevelCounter.findIds({ level: 2 ** 89, at: { gte: 0 } }, { orderBy: { at: 'asc' } })).toEqual([made.id, grown.id]);
  });

  it('add -0 to -0 as JavaScript does: -0, stored as a create of -0 stores it', async () => {
    const counter = await RangeCounter.create({ hits: -0 });
    const createdText = await stored(counter.id);
    const value = await counter.increment('hits', -0);
    expect(Object.is(value, -0)).toBe(true);
    expect(Object.is(counter.hits, -0)).toBe(true);
    expect(await stored(counter.id)).toBe(createdText);
    expect(Object.is((await RangeCounter.findOrFail(counter.id)).hits, -0)).toBe(true);
    expect(Object.is(await counter.increment('hits', 0), 0)).toBe(true); // -0 + 0 is 0
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
    const gone = await RangeCounter.create({ name: 'gone' });
    const goneId = gone.id;
    await gone.remove();
    await expect(RangeCounter.withLock(goneId, async () => 1)).rejects.toBeInstanceOf(NotFoundError);
  });
});

/**
 * numbers.lua's numberForm, the stored text increment writes, run on its own against what the number codec
 * writes (String(x), '-0' for -0) for doubles of every kind, many per script call.
 */
describe('numberForm (numbers.lua)', () => {
  // the library's function, run by itself in a script of the test's own
  const library = readFileSync(join(__dirname, '../../src/store/lua/lib/numbers.lua'), 'utf8');
  const check = `${library}\nlocal out = {}\nfor i, text in ipairs(ARGV) do\n  out[i] = numberForm(tonumber(text))\nend\nreturn out\n`;

  /** The values whose numberForm differs from numberCodec.encode, with both texts. */
  async function mismatches(values: number[]): Promise<Array<{ value: number; lua: string; js: string }>> {
    const wrong: Array<{ value: number; lua: string; js: string }> = [];
    for (let i = 0; i < values.length; i += 5000) {
      const batch = values.slice(i, i + 5000);
      // String(x) reads back as exactly x (tonumber is strtod): the script is given the double itself
      const texts = (await redis.raw.sendCommand(['EVAL', check, '0', ...batch.map((x) => numberCodec.encode(x))])) as string[];
      batch.forEach((value, j) => {
        if (texts[j] !== numberCodec.encode(value)) wrong.push({ value, lua: texts[j], js: numberCodec.encode(value) });
      });
    }
    return wrong;
  }

  const bothSigns = (values: number[]) => [...values, ...values.map((x) => -x)];

  it('writes every power of two, and the doubles either side of it, as String() does', async () => {
    const around = powersOfTwo.flatMap((x) => [x, nextAway(x), nextToward(x)]);
    expect(await mismatches(bothSigns([...around, Number.MAX_VALUE]))).toEqual([]);
  });

  it('writes random doubles of every exponent as String() does', async () => {
    const next = seeded(20240611);
    const values: number[] = [];
    while (values.length < 30_000) {
      const x = fromBits(next(), next());
      if (Number.isFinite(x)) values.push(x);
    }
    expect(await mismatches(values)).toEqual([]);
  });

  it('writes denormals, short decimals and their neighbours as String() does', async () => {
    const next = seeded(7);
    const denormals = Array.from({ length: 5000 }, () => fromBits(next() & 0x000fffff, next()));
    const decimals = Array.from({ length: 10_000 }, () => (next() % 1_000_000) / 10 ** (next() % 30));
    expect(await mismatches(bothSigns([0, ...denormals, ...decimals, ...decimals.map(nextAway), 1125899906842624.25]))).toEqual([]);
  });

  it('switches to exponent form where String() does, at 1e21 and 1e-7', async () => {
    const edges: number[] = [];
    for (const edge of [1e21, 1e-7, 1e-6, 1e20]) {
      let up = edge;
      let down = edge;
      for (let i = 0; i < 200; i++) {
        edges.push(up, down);
        up = nextAway(up);
        down = nextToward(down);
      }
      edges.push(edge * 0.999, edge * 1.001, edge * 9.999, edge / 9.999);
    }
    expect(await mismatches(bothSigns(edges))).toEqual([]);
  });
});
