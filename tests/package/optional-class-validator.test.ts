import { useOwnPrefixes } from '../support/test-redis';

/**
 * class-validator is an optional peer dependency: redis-record loads it only where the application has it. Here a
 * fresh copy of redis-record runs with class-validator missing (required, it throws what Node throws for a
 * package that is not installed): models save and load, and values an attribute cannot store are still refused,
 * in the same shape. With class-validator installed, tests/core/validation.test.ts checks its rules.
 */
type RedisRecord = typeof import('../../src');
type Loader = typeof import('../../src/util/class-validator');

/**
 * A fresh copy of redis-record loaded while requiring class-validator throws `failure`: gives it and what it found
 * of class-validator, or the error loading it threw.
 */
function withoutClassValidator(failure: string): { rr?: RedisRecord; found: ReturnType<Loader['optionalClassValidator']> | Error } {
  let loaded!: { rr?: RedisRecord; found: ReturnType<Loader['optionalClassValidator']> | Error };
  jest.isolateModules(() => {
    jest.doMock('class-validator', () => {
      throw Object.assign(new Error(failure), { code: 'MODULE_NOT_FOUND' });
    });
    try {
      const rr: RedisRecord = require('../../src');
      loaded = { rr, found: (require('../../src/util/class-validator') as Loader).optionalClassValidator() };
    } catch (error) {
      loaded = { found: error as Error };
    }
  });
  jest.dontMock('class-validator');
  return loaded;
}

const { freshPrefix } = useOwnPrefixes('ocv');

describe('without class-validator installed', () => {
  const { rr: loaded, found } = withoutClassValidator("Cannot find module 'class-validator' from 'src/util/class-validator.ts'");
  const rr = loaded!;

  @rr.Model({ name: 'Note' })
  class Note extends rr.BaseEntity {
    @rr.Attr({ type: 'string' }) @rr.Index() topic!: string;
    @rr.Attr({ type: 'number' }) stars = 0;
  }

  beforeAll(async () => {
    await rr.connect({ url: process.env.REDIS_URL, prefix: freshPrefix() });
  });
  afterAll(async () => {
    await rr.disconnect();
  });

  test('there is no class-validator to load', () => {
    expect(found).toBeUndefined();
  });

  test('models save, load, update and query', async () => {
    const note = await Note.create({ topic: 'redis', stars: 2 });
    const found = await Note.findOrFail(note.id);
    found.stars += 1;
    await found.save();
    expect((await Note.findBy({ topic: 'redis' })).map((n) => [n.id, n.stars])).toEqual([[note.id, 3]]);
  });

  test('a value the attribute cannot store is refused, in class-validator’s shape, and nothing is written', async () => {
    const before = await Note.count();
    const error = await Note.create({ topic: 'x', stars: NaN }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(rr.ValidationError);
    const [failure] = (error as InstanceType<RedisRecord['ValidationError']>).errors;
    // a plain object, where class-validator would have made its ValidationError
    expect(failure).toStrictEqual({
      target: expect.any(Note),
      property: 'stars',
      value: NaN,
      children: [],
      constraints: { isFinite: 'stars must be a finite number' },
    });
    expect(await Note.count()).toBe(before);
  });
});

test('a class-validator that is installed but fails to load makes loading redis-record fail, not skip its rules', () => {
  const { found } = withoutClassValidator("Cannot find module 'validator'\nRequire stack:\n- node_modules/class-validator/cjs/index.js");
  expect(found).toBeInstanceOf(Error);
  expect((found as Error).message).toMatch(/^Cannot find module 'validator'/);
});
