import { ValidationError as ClassValidatorError } from 'class-validator';
import { Attr, BaseEntity, Model, ValidationError } from '../../src';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * A value that cannot be stored so that it reads back exactly is refused with a ValidationError before
 * anything is written. Its `errors` have class-validator's shape: one entry per attribute, with the property,
 * the value and a `constraints` map.
 */

@Model()
class InvalidSample extends BaseEntity {
  @Attr() name?: string;
  @Attr() count?: number;
  @Attr() active?: boolean;
  @Attr() at?: Date;
  @Attr({ type: 'json' }) data?: unknown;
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

const redis = useTestRedis();

/** The keys of InvalidSample objects and their `all` set (the sequence is checked on its own). */
async function sampleKeys(): Promise<string[]> {
  const keys = await keysUnder(redis.raw, redis.prefix);
  return keys.filter((key) => key.includes('{InvalidSample}') && !key.endsWith(':seq'));
}

/** The ValidationError `promise` rejects with. */
async function validationErrorOf(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

function cyclic(): unknown {
  const node: Record<string, unknown> = { name: 'loop' };
  node.self = node;
  return node;
}

const badValues: Array<[string, Record<string, unknown>, string, string]> = [
  ['NaN in a number', { count: NaN }, 'count', 'isFinite'],
  ['Infinity in a number', { count: Infinity }, 'count', 'isFinite'],
  ['-Infinity in a number', { count: -Infinity }, 'count', 'isFinite'],
  ['a string in a number', { count: '12' }, 'count', 'isNumber'],
  ['a bigint in a number', { count: 12n }, 'count', 'isNumber'],
  ['a number in a string', { name: 12 }, 'name', 'isString'],
  ['a lone high surrogate in a string', { name: '\uD800' }, 'name', 'isWellFormed'],
  ['a lone low surrogate inside a string', { name: 'a\uDC00b' }, 'name', 'isWellFormed'],
  ['a string in a boolean', { active: 'true' }, 'active', 'isBoolean'],
  ['a number in a boolean', { active: 1 }, 'active', 'isBoolean'],
  ['an Invalid Date', { at: new Date(NaN) }, 'at', 'isDate'],
  ['a date string in a Date', { at: '2024-01-01' }, 'at', 'isDate'],
  ['a timestamp in a Date', { at: 0 }, 'at', 'isDate'],
  ['json holding NaN', { data: { n: NaN } }, 'data', 'isJson'],
  ['json holding Infinity', { data: [1, Infinity] }, 'data', 'isJson'],
  ['json holding -0', { data: { zero: -0 } }, 'data', 'isJson'],
  ['json holding undefined in an array', { data: [1, undefined, 3] }, 'data', 'isJson'],
  ['json holding a hole in an array', { data: [1, , 3] }, 'data', 'isJson'],
  ['json holding a class instance', { data: { at: new Point(1, 2) } }, 'data', 'isJson'],
  ['json holding a Date', { data: { at: new Date(0) } }, 'data', 'isJson'],
  ['json holding a Map', { data: new Map([['a', 1]]) }, 'data', 'isJson'],
  ['json holding a cycle', { data: cyclic() }, 'data', 'isJson'],
  ['json holding a function', { data: { f: () => 1 } }, 'data', 'isJson'],
  ['json holding a bigint', { data: [1n] }, 'data', 'isJson'],
  ['json holding a lone surrogate', { data: ['\uD800'] }, 'data', 'isJson'],
  ['json holding a non-enumerable property', { data: { a: Object.defineProperty({}, 'hidden', { value: 1 }) } }, 'data', 'isJson'],
  ['json that is an array with a non-enumerable property', { data: Object.defineProperty([1], 'hidden', { value: 1 }) }, 'data', 'isJson'],
  ['json that is a bare NaN', { data: NaN }, 'data', 'isJson'],
];

describe('values a create refuses', () => {
  it.each(badValues)('%s: ValidationError, nothing written', async (_label, attributes, property, constraint) => {
    const error = await validationErrorOf(InvalidSample.create(attributes as never));

    expect(error.errors).toHaveLength(1);
    const [failure] = error.errors;
    expect(failure).toBeInstanceOf(ClassValidatorError);
    expect(failure.property).toBe(property);
    expect(failure.value).toBe(attributes[property]);
    expect(Object.keys(failure.constraints!)).toEqual([constraint]);
    expect(error.message).toContain('InvalidSample');
    expect(error.message).toContain(property);
    expect(await sampleKeys()).toEqual([]);
  });

  it('reports every refused attribute at once', async () => {
    const error = await validationErrorOf(InvalidSample.create({ name: '\uD800', count: NaN, at: new Date(NaN) }));
    expect(error.errors.map((failure) => failure.property).sort()).toEqual(['at', 'count', 'name']);
    expect(await sampleKeys()).toEqual([]);
  });

  it('does not use up a sequence id', async () => {
    await expect(InvalidSample.create({ count: NaN })).rejects.toThrow(ValidationError);
    expect(await redis.raw.exists(`${redis.prefix}:{InvalidSample}:seq`)).toBe(0);
    const created = await InvalidSample.create({ count: 1 });
    expect(await redis.raw.get(`${redis.prefix}:{InvalidSample}:seq`)).toBe(created.id);
    await created.remove();
  });

  it.each([
    [{ zero: -0 }, 'data $.zero is -0, which JSON cannot hold exactly'],
    [[1, Infinity], 'data $[1] is Infinity, which JSON cannot hold exactly'],
  ])('names the number a json value cannot hold exactly: %p', async (data, message) => {
    const error = await validationErrorOf(InvalidSample.create({ data } as never));
    expect(error.errors[0].constraints).toEqual({ isJson: message });
  });

  it('is a plain Error subclass carrying a readable message', async () => {
    const error = await validationErrorOf(InvalidSample.create({ count: Infinity }));
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ValidationError');
    expect(error.message).toMatch(/count/);
  });
});

describe('values an update refuses', () => {
  it('leaves the stored object and the instance unchanged, and a corrected save works', async () => {
    const sample = await InvalidSample.create({ name: 'ok', count: 1 });
    const key = `${redis.prefix}:{InvalidSample}:obj:${sample.id}`;
    const before = await redis.raw.hGetAll(key);

    sample.name = 'changed';
    sample.count = NaN;
    await expect(sample.save()).rejects.toThrow(ValidationError);
    expect(await redis.raw.hGetAll(key)).toEqual(before);

    sample.count = 2;
    await sample.save();
    expect(await InvalidSample.findOrFail(sample.id)).toMatchObject({ name: 'changed', count: 2 });
    await sample.remove();
  });
});

describe('attribute names build and create do not know', () => {
  it.each([
    ['a misspelt attribute', { nmae: 'x' }, 'nmae'],
    ['the id', { id: '7' }, 'id'],
    ['a method name', { save: 1 }, 'save'],
    ['"__proto__" from JSON.parse', JSON.parse('{"__proto__": {"polluted": 1}}'), '__proto__'],
  ])('%s: create throws ValidationError and writes nothing', async (_label, attributes, property) => {
    const error = await validationErrorOf(InvalidSample.create(attributes as never));
    expect(error.errors.map((failure) => failure.property)).toEqual([property]);
    expect(Object.keys(error.errors[0].constraints!)).toEqual(['unknownAttribute']);
    expect(await sampleKeys()).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('the id (as in toJSON() output given back): the message says it is given when the object is first saved', () => {
    const stored = { id: '7', name: 'copied' };
    expect(() => InvalidSample.build(stored as never)).toThrow(
      'InvalidSample is not valid: InvalidSample: id is not an attribute; it is given when the object is first saved',
    );
  });

  it('build throws ValidationError too, synchronously', () => {
    expect(() => InvalidSample.build({ colour: 'red' } as never)).toThrow(ValidationError);
  });

  it('lists every unknown name', () => {
    let caught: unknown;
    try {
      InvalidSample.build({ a: 1, name: 'fine', b: 2 } as never);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).errors.map((failure) => failure.property)).toEqual(['a', 'b']);
  });
});
