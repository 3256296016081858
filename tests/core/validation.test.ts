import { IsEmail, Length, Min, ValidationError as ClassValidatorError } from 'class-validator';
import { ArgumentError, Attr, BaseEntity, BeforeValidate, Model, ValidationError } from '../../src';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * class-validator's decorators are checked on every save: a failure throws our ValidationError carrying
 * class-validator's own errors, and nothing is written. save({ validate: false }) skips them (codecs still
 * refuse values that cannot be stored).
 */

@Model()
class ValidatedAccount extends BaseEntity {
  @Attr() @Length(3, 20) handle!: string;
  @Attr() @IsEmail() email!: string;
  @Attr() @Min(0) credits = 0;
}

const redis = useTestRedis();

function objectKey(id: string): string {
  return `${redis.prefix}:{ValidatedAccount}:obj:${id}`;
}

async function accountKeys(): Promise<string[]> {
  return (await keysUnder(redis.raw, redis.prefix)).filter((key) => key.includes('{ValidatedAccount}'));
}

async function rejection(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

describe('a create that breaks a class-validator rule', () => {
  it('throws ValidationError with class-validator errors and writes nothing', async () => {
    const error = await rejection(ValidatedAccount.create({ handle: 'ab', email: 'ann@example.com' }));

    expect(error.errors).toHaveLength(1);
    expect(error.errors[0]).toBeInstanceOf(ClassValidatorError);
    expect(error.errors[0]).toMatchObject({ property: 'handle', value: 'ab' });
    expect(Object.keys(error.errors[0].constraints!)).toEqual(['isLength']);
    expect(error.message).toContain('ValidatedAccount');
    expect(await accountKeys()).toEqual([]);
  });

  it('reports every broken rule', async () => {
    const error = await rejection(ValidatedAccount.create({ handle: 'x', email: 'not an email', credits: -1 }));
    expect(error.errors.map((failure) => failure.property).sort()).toEqual(['credits', 'email', 'handle']);
    expect(await accountKeys()).toEqual([]);
  });
});

describe('an update that breaks a class-validator rule', () => {
  it('throws and leaves the stored object as it was', async () => {
    const account = await ValidatedAccount.create({ handle: 'ann', email: 'ann@example.com' });
    const before = await redis.raw.hGetAll(objectKey(account.id));

    account.handle = 'a very long handle over twenty characters';
    account.credits = 5;
    const error = await rejection(account.save());

    expect(error.errors.map((failure) => failure.property)).toEqual(['handle']);
    expect(await redis.raw.hGetAll(objectKey(account.id))).toEqual(before);
    await account.remove();
  });
});

describe('save({ validate: false })', () => {
  it('skips class-validator on create', async () => {
    const account = await ValidatedAccount.create({ handle: 'x', email: 'nope', credits: -5 }, { validate: false });
    expect(await redis.raw.hGetAll(objectKey(account.id))).toMatchObject({ handle: 'x', email: 'nope', credits: '-5' });
    await account.remove();
  });

  it('skips class-validator on update', async () => {
    const account = await ValidatedAccount.create({ handle: 'bob', email: 'bob@example.com' });
    account.email = 'not an email';
    await account.save({ validate: false });
    expect((await ValidatedAccount.findOrFail(account.id)).email).toBe('not an email');
    await account.remove();
  });

  it('still refuses values the codecs cannot store', async () => {
    const error = await rejection(ValidatedAccount.create({ handle: 'eve', email: 'e@example.com', credits: NaN }, { validate: false }));
    expect(error.errors.map((failure) => failure.property)).toEqual(['credits']);
    expect(await accountKeys()).not.toContainEqual(expect.stringContaining(':obj:'));
  });

  it('does not switch validation off for later saves', async () => {
    const account = await ValidatedAccount.create({ handle: 'x', email: 'nope' }, { validate: false });
    account.credits = 1;
    await expect(account.save()).rejects.toThrow(ValidationError);
    await account.remove();
  });
});

/** As ValidatedAccount, counting the saves that got as far as their first hook. */
@Model()
class ValidatedHandle extends BaseEntity {
  static hooksRun = 0;
  @Attr() @Length(3, 20) handle!: string;

  @BeforeValidate()
  counted(): void {
    ValidatedHandle.hooksRun++;
  }
}

describe('a validate option that is not true or false', () => {
  const refused: Array<[unknown, string]> = [
    ['false', '"false"'],
    [0, '0'],
    ['no', '"no"'],
    [null, 'null'],
    [1, '1'],
  ];

  it('is an ArgumentError naming the value from create, save and saveMany, before any hook or write', async () => {
    const kept = await ValidatedHandle.create({ handle: 'kept' });
    const before = (await keysUnder(redis.raw, redis.prefix)).sort();
    ValidatedHandle.hooksRun = 0;
    kept.handle = 'x';
    for (const [value, named] of refused) {
      const options = { validate: value } as never;
      const calls: Array<[string, () => Promise<unknown>]> = [
        ['save', () => ValidatedHandle.create({ handle: 'toolong'.repeat(5) }, options)],
        ['save', () => kept.save(options)],
        ['saveMany', () => ValidatedHandle.saveMany([{ handle: 'x' }, kept], options)],
      ];
      for (const [operation, call] of calls) {
        const error = await call().then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(ArgumentError);
        expect((error as Error).message).toBe(`${operation}: validate must be true or false, got ${named}`);
      }
    }
    expect(ValidatedHandle.hooksRun).toBe(0);
    expect((await keysUnder(redis.raw, redis.prefix)).sort()).toEqual(before);
    expect((await ValidatedHandle.findOrFail(kept.id)).handle).toBe('kept');
    // true, false and an absent validate still do what they say
    await expect(kept.save({ validate: true })).rejects.toThrow(ValidationError);
    await expect(kept.save({ validate: undefined })).rejects.toThrow(ValidationError);
    await kept.save({ validate: false });
    expect((await ValidatedHandle.findOrFail(kept.id)).handle).toBe('x');
    await kept.remove();
  });
});

describe('a valid object', () => {
  it('is saved after passing every rule', async () => {
    const account = await ValidatedAccount.create({ handle: 'carol', email: 'carol@example.com', credits: 10 });
    expect((await ValidatedAccount.findOrFail(account.id)).toJSON()).toEqual({
      id: account.id,
      handle: 'carol',
      email: 'carol@example.com',
      credits: 10,
    });
    await account.remove();
  });
});
