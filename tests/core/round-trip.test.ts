import { Attr, BaseEntity, Codec, Model } from '../../src';
import { dateCodec } from '../../src/codecs/date-codec';
import { useTestRedis } from '../support/test-redis';

/**
 * Every attribute type reads back exactly what was saved, including the values that usually get lost on
 * the way through a string: -0, the extremes of the double range, epoch 0, empty and odd strings.
 */

@Model()
class RoundTripText extends BaseEntity {
  @Attr() text!: string;
}

@Model()
class RoundTripNumber extends BaseEntity {
  @Attr() value!: number;
}

@Model()
class RoundTripFlag extends BaseEntity {
  @Attr() flag = true;
}

@Model()
class RoundTripMoment extends BaseEntity {
  @Attr() at!: Date;
}

@Model()
class RoundTripDocument extends BaseEntity {
  @Attr({ type: 'json' }) data!: unknown;
}

/** Stores a bigint as its decimal digits: a type no built-in codec knows. */
const bigintCodec: Codec<bigint> = {
  encode: (value) => `big:${value.toString()}`,
  decode: (raw) => BigInt(raw.slice('big:'.length)),
};

@Model()
class RoundTripLedger extends BaseEntity {
  @Attr({ codec: bigintCodec }) balance!: bigint;
  @Attr({ codec: { encode: (tags: Set<string>) => [...tags].join(','), decode: (raw: string) => new Set(raw.split(',')) } })
  tags!: Set<string>;
}

const redis = useTestRedis();

function objectKey(model: string, id: string): string {
  return `${redis.prefix}:{${model}}:obj:${id}`;
}

describe('string attributes', () => {
  const cases: Array<[string, string]> = [
    ['plain text', 'hello world'],
    ['unicode and emoji', 'Grüße, 你好, עברית, 👩‍👩‍👧‍👦 🏳️‍🌈 e\u0301'],
    ['the empty string', ''],
    ['a NUL character', '\0'],
    ['NUL inside text', 'a\0b\0'],
    ['a colon (the key separator)', ':'],
    ['braces (a hash tag)', '{}'],
    ['a glob star', '*'],
    ['newlines and CRLF', 'line 1\nline 2\r\nline 3\r'],
    ['text that looks like a number', '007'],
    ['text that looks like JSON', '{"a":1}'],
    ['text that looks like a boolean', 'true'],
    ['surrounding whitespace', '  padded  '],
  ];

  it.each(cases)('round-trips %s', async (_label, text) => {
    const saved = await RoundTripText.create({ text });
    const loaded = await RoundTripText.findOrFail(saved.id);
    expect(loaded.text).toBe(text);
  });

  it('round-trips a 1 MB string', async () => {
    const text = 'ab€😀\n'.repeat(1 << 17);
    expect(Buffer.byteLength(text)).toBeGreaterThan(1 << 20);
    const saved = await RoundTripText.create({ text });
    const loaded = await RoundTripText.findOrFail(saved.id);
    expect(loaded.text.length).toBe(text.length);
    expect(loaded.text === text).toBe(true);
  });

  it('stores the string as it is, readable in redis-cli', async () => {
    const saved = await RoundTripText.create({ text: 'ünïcode: {*}' });
    expect(await redis.raw.hGet(objectKey('RoundTripText', saved.id), 'text')).toBe('ünïcode: {*}');
  });
});

describe('number attributes', () => {
  const cases: Array<[string, number]> = [
    ['zero', 0],
    ['one', 1],
    ['a negative integer', -42],
    ['1e308', 1e308],
    ['-1e308', -1e308],
    ['the largest double', Number.MAX_VALUE],
    ['the smallest subnormal, 5e-324', 5e-324],
    ['-5e-324', -5e-324],
    ['Number.MAX_SAFE_INTEGER', Number.MAX_SAFE_INTEGER],
    ['Number.MIN_SAFE_INTEGER', Number.MIN_SAFE_INTEGER],
    ['2^53 + 2 (beyond the safe integers)', 2 ** 53 + 2],
    ['0.1 + 0.2', 0.1 + 0.2],
    ['one third', 1 / 3],
    ['-2.5', -2.5],
    ['pi', Math.PI],
    ['1e21 (exponent form)', 1e21],
    ['1e-7 (exponent form)', 1e-7],
  ];

  it.each(cases)('round-trips %s exactly', async (_label, value) => {
    const saved = await RoundTripNumber.create({ value });
    const loaded = await RoundTripNumber.findOrFail(saved.id);
    expect(Object.is(loaded.value, value)).toBe(true);
  });

  it('keeps -0 as -0 (Object.is), stored as "-0"', async () => {
    const saved = await RoundTripNumber.create({ value: -0 });
    expect(await redis.raw.hGet(objectKey('RoundTripNumber', saved.id), 'value')).toBe('-0');
    const loaded = await RoundTripNumber.findOrFail(saved.id);
    expect(Object.is(loaded.value, -0)).toBe(true);
  });

  it('sees 0 -> -0 as a change and writes it', async () => {
    const saved = await RoundTripNumber.create({ value: 0 });
    saved.value = -0;
    await saved.save();
    expect(Object.is((await RoundTripNumber.findOrFail(saved.id)).value, -0)).toBe(true);
  });

  it('stores numbers in their shortest round-trip decimal form', async () => {
    const saved = await RoundTripNumber.create({ value: 0.1 + 0.2 });
    expect(await redis.raw.hGet(objectKey('RoundTripNumber', saved.id), 'value')).toBe('0.30000000000000004');
  });

  it('returns a number, not a numeric string', async () => {
    const saved = await RoundTripNumber.create({ value: 12 });
    expect(typeof (await RoundTripNumber.findOrFail(saved.id)).value).toBe('number');
  });
});

describe('boolean attributes', () => {
  it.each([true, false])('round-trips %s', async (flag) => {
    const saved = await RoundTripFlag.create({ flag });
    const loaded = await RoundTripFlag.findOrFail(saved.id);
    expect(loaded.flag).toBe(flag);
  });

  it('reads back false, not the class default true', async () => {
    const saved = await RoundTripFlag.create({ flag: false });
    expect(await redis.raw.hGet(objectKey('RoundTripFlag', saved.id), 'flag')).toBe('false');
    expect((await RoundTripFlag.findOrFail(saved.id)).flag).toBe(false);
  });
});

describe('Date attributes', () => {
  const cases: Array<[string, Date]> = [
    ['a date with milliseconds', new Date('2024-02-29T23:59:59.999Z')],
    ['epoch 0', new Date(0)],
    ['one millisecond before the epoch', new Date(-1)],
    ['a date before 1970', new Date('1901-12-13T20:45:52.123Z')],
    ['the earliest Date', new Date(-8.64e15)],
    ['the latest Date', new Date(8.64e15)],
  ];

  it.each(cases)('round-trips %s to the millisecond', async (_label, at) => {
    const saved = await RoundTripMoment.create({ at });
    const loaded = await RoundTripMoment.findOrFail(saved.id);
    expect(loaded.at).toBeInstanceOf(Date);
    expect(loaded.at.getTime()).toBe(at.getTime());
  });

  it('stores a Date as epoch milliseconds', async () => {
    const saved = await RoundTripMoment.create({ at: new Date(1700000000123) });
    expect(await redis.raw.hGet(objectKey('RoundTripMoment', saved.id), 'at')).toBe('1700000000123');
  });

  it('writes every time a Date holds as its decimal milliseconds, read back to the same time', () => {
    const times = [0, 1, -1, 999_999, 1e6, 1_000_000_000_000, 1_700_000_000_000, 1_700_000_000_007, 2 ** 31 * 1e6 + 1];
    times.push(8.64e15, -8.64e15, -1e6, -1_700_000_000_123);
    for (let i = 0; i < 2_000; i++) times.push(Math.floor((Math.random() * 2 - 1) * 8.64e15));
    for (const time of times) {
      const written = dateCodec.encode(new Date(time));
      expect(written).toMatch(/^-?(0|[1-9]\d*)$/);
      expect([written, dateCodec.decode(written).getTime()]).toEqual([written, time]);
    }
  });

  it('gives each loaded object its own Date instance', async () => {
    const at = new Date(5);
    const saved = await RoundTripMoment.create({ at });
    const loaded = await RoundTripMoment.findOrFail(saved.id);
    expect(loaded.at).not.toBe(at);
    expect(loaded.at).toEqual(at);
  });
});

describe('json attributes', () => {
  const cases: Array<[string, unknown]> = [
    ['a nested object', { a: { b: { c: [1, 2, { d: 'e' }] } }, n: null, t: true }],
    ['a nested array', [[1, [2, [3, []]]], {}, 'x', null, false, -1.5]],
    ['an empty object', {}],
    ['an empty array', []],
    ['a bare string', 'just text'],
    ['a bare number', 42.5],
    ['false', false],
    ['unicode keys and values', { 'ключ 🔑': 'значение 😀', '': 'empty key' }],
    ['numbers at the edges', [Number.MAX_SAFE_INTEGER, 5e-324, -1e308]],
  ];

  it.each(cases)('round-trips %s', async (_label, data) => {
    const saved = await RoundTripDocument.create({ data });
    const loaded = await RoundTripDocument.findOrFail(saved.id);
    expect(loaded.data).toEqual(data);
  });

  it('leaves out object properties whose value is undefined, as JSON does', async () => {
    const saved = await RoundTripDocument.create({ data: { kept: 1, dropped: undefined } });
    const loaded = await RoundTripDocument.findOrFail(saved.id);
    expect(loaded.data).toStrictEqual({ kept: 1 });
  });

  it('round-trips "__proto__" and "constructor" keys as own properties without touching Object.prototype', async () => {
    const data = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "x": 1}');
    expect(Object.keys(data)).toEqual(['__proto__', 'constructor', 'x']);

    const saved = await RoundTripDocument.create({ data });
    const loaded = (await RoundTripDocument.findOrFail(saved.id)).data as Record<string, unknown>;

    expect(Object.keys(loaded)).toEqual(['__proto__', 'constructor', 'x']);
    expect(Object.getPrototypeOf(loaded)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(loaded, '__proto__')!.value).toEqual({ polluted: 'yes' });
    expect(Object.getOwnPropertyDescriptor(loaded, 'constructor')!.value).toEqual({ prototype: { polluted: 'yes' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts objects without a prototype', async () => {
    const data = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    const saved = await RoundTripDocument.create({ data });
    expect((await RoundTripDocument.findOrFail(saved.id)).data).toEqual({ a: 1 });
  });
});

describe('custom codecs, @Attr({ codec: { encode, decode } })', () => {
  it('round-trips values through the codec', async () => {
    const balance = 2n ** 100n - 1n;
    const saved = await RoundTripLedger.create({ balance, tags: new Set(['a', 'b']) });
    const loaded = await RoundTripLedger.findOrFail(saved.id);
    expect(loaded.balance).toBe(balance);
    expect(loaded.tags).toEqual(new Set(['a', 'b']));
  });

  it('stores what encode returns', async () => {
    const saved = await RoundTripLedger.create({ balance: -5n, tags: new Set(['x']) });
    const stored = await redis.raw.hGetAll(objectKey('RoundTripLedger', saved.id));
    expect(stored.balance).toBe('big:-5');
    expect(stored.tags).toBe('x');
  });

  it('writes an update when the encoded form changes', async () => {
    const saved = await RoundTripLedger.create({ balance: 1n });
    saved.balance += 1n;
    await saved.save();
    expect((await RoundTripLedger.findOrFail(saved.id)).balance).toBe(2n);
  });
});
