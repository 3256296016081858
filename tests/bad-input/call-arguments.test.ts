import { ArgumentError, Attr, BaseEntity, Counter, Model, Version } from '../../src';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * Arguments a JavaScript caller can get wrong outside the bulk calls (bulk-arguments.test.ts has those): a
 * static method called without its class, build and create given something other than an object (or an entity,
 * whose properties are not attributes given), withLock given a work that is not a function or an option it does
 * not take, expire given a bigint, increment given a symbol. Each is an ArgumentError naming the value, and
 * nothing is written.
 */

@Model({ name: 'CallArgItem', expirable: true })
class Item extends BaseEntity {
  @Attr() title!: string;
  @Counter() views = 0;
}

@Model({ name: 'CallArgOther' })
class CallArgOther extends BaseEntity {
  @Attr() title!: string;
}

const redis = useTestRedis();
const itemKeys = async () => (await keysUnder(redis.raw, `${redis.prefix}:{CallArgItem}`)).sort();
const rejection = (work: () => Promise<unknown>) =>
  work().then(
    () => undefined,
    (error: unknown) => error,
  );
const thrown = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('a static method called without its class', () => {
  it('is an ArgumentError that says how to call it (TypeScript refuses the call: this is for JavaScript)', async () => {
    const find = Item.find as unknown as (id: string) => Promise<unknown>;
    const build = Item.build as unknown as (attributes: object) => unknown;
    const error = await rejection(() => find('1'));
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as Error).message).toBe(
      'expected a model class, got undefined: call the method on the class (Post.find(...)), or bind it',
    );
    expect(thrown(() => build({ title: 'x' }))).toBeInstanceOf(ArgumentError);
  });

  it('is a rejection from every method that returns a promise, and the first next() of iterate', async () => {
    const unbound = (name: string) => (Item as unknown as Record<string, (...args: unknown[]) => unknown>)[name];
    for (const name of [
      'find',
      'findOrFail',
      'exists',
      'count',
      'findBy',
      'findOneBy',
      'findIds',
      'sweep',
      'drop',
      'check',
      'repair',
      'reindex',
      'schemaStatus',
      'update',
      'upsert',
    ]) {
      let promise: unknown;
      expect({ name, thrown: thrown(() => (promise = unbound(name)({}))) }).toEqual({ name, thrown: undefined });
      const error = await rejection(() => promise as Promise<unknown>);
      expect({ name, error: error instanceof ArgumentError }).toEqual({ name, error: true });
    }
    let iterator: AsyncGenerator<unknown> | undefined;
    expect(thrown(() => (iterator = unbound('iterate')({}) as AsyncGenerator<unknown>))).toBeUndefined();
    expect(await rejection(() => iterator!.next())).toBeInstanceOf(ArgumentError);
  });
});

describe('update', () => {
  it.each([
    ['null', null, 'null'],
    ['a string', 'ab', '"ab"'],
    ['an array', [{ title: 'x' }], 'an array'],
    ['a Map', new Map([['title', 'x']]), 'a Map'],
  ])('given %s: ArgumentError, nothing written', async (_label, input, named) => {
    const stored = await Item.create({ title: 'stored' });
    const before = await itemKeys();
    const fromUpdate = await rejection(() => Item.update(stored.id, input as never));
    expect(fromUpdate).toBeInstanceOf(ArgumentError);
    expect((fromUpdate as Error).message).toBe(`CallArgItem.update takes an object of attributes, got ${named}`);
    expect(await itemKeys()).toEqual(before);
    await stored.remove();
  });
});

describe('build and create', () => {
  it.each([
    ['null', null, 'null'],
    ['a string', 'ab', '"ab"'],
    ['a number', 5, '5'],
    ['an array', [{ title: 'x' }], 'an array'],
    // their entries are not properties: each would be read as no attributes, an empty object created
    ['a Map', new Map([['title', 'x']]), 'a Map'],
    ['a Set', new Set(['x']), 'a Set'],
    ['a Date', new Date(0), 'a Date'],
  ])('given %s: ArgumentError, nothing written', async (_label, input, named) => {
    const before = await itemKeys();
    const message = `CallArgItem: build and create take an object of attributes, got ${named}`;
    const fromBuild = thrown(() => Item.build(input as never));
    expect(fromBuild).toBeInstanceOf(ArgumentError);
    expect((fromBuild as Error).message).toBe(message);
    const fromCreate = await rejection(() => Item.create(input as never));
    expect(fromCreate).toBeInstanceOf(ArgumentError);
    expect((fromCreate as Error).message).toBe(message);
    expect(await itemKeys()).toEqual(before);
  });

  it('given an instance of a class of your own: its own properties are the attributes, as from saveMany', async () => {
    class Draft {
      title = 'from a class';
    }
    expect(Item.build(new Draft()).title).toBe('from a class');
    const created = await Item.create(new Draft());
    const [fromSaveMany] = (await Item.saveMany([new Draft()])).saved;
    expect((await Item.findOrFail(created.id)).title).toBe('from a class');
    expect((await Item.findOrFail(fromSaveMany.id)).title).toBe('from a class');
    await Item.removeMany([created.id, fromSaveMany.id]);
  });

  it('given an entity, of another model or of its own: ArgumentError, nothing written', async () => {
    // Another model's entity sharing an attribute would otherwise have its properties copied as attributes.
    const other = await CallArgOther.create({ title: 'other' });
    const item = await Item.create({ title: 'item' });
    const before = await itemKeys();
    for (const [entity, named] of [
      [other, 'a CallArgOther'],
      [item, 'an Item'],
    ] as const) {
      const message = `CallArgItem: build and create take an object of attributes, not an entity; got ${named}`;
      const fromBuild = thrown(() => Item.build(entity as never));
      expect(fromBuild).toBeInstanceOf(ArgumentError);
      expect((fromBuild as Error).message).toBe(message);
      const fromCreate = await rejection(() => Item.create(entity as never));
      expect(fromCreate).toBeInstanceOf(ArgumentError);
      expect((fromCreate as Error).message).toBe(message);
    }
    expect(await itemKeys()).toEqual(before);
    expect(await Item.count()).toBe(1);
    await item.remove();
  });

  it('given nothing: an object with no attributes set, as before', async () => {
    const item = await Item.create();
    expect(item.id).toBeDefined();
    await item.remove();
  });
});

describe('count', () => {
  it('refuses a second argument (it has no options) instead of counting something else', async () => {
    await Item.create({ title: 'counted' });
    const count = Item.count as unknown as (where: object, options: unknown) => Promise<number>;
    const limited = await rejection(() => count.call(Item, {}, { limit: 0 }));
    expect(limited).toBeInstanceOf(ArgumentError);
    expect((limited as Error).message).toBe('CallArgItem.count takes a where alone, it has no options; got an object');
    // in any place after the where
    const later = count as unknown as (where: object, ...rest: unknown[]) => Promise<number>;
    const third = await rejection(() => later.call(Item, {}, undefined, { limit: 0 }));
    expect((third as Error).message).toBe('CallArgItem.count takes a where alone, it has no options; got an object');
    // undefined is no argument, as everywhere
    expect(await count.call(Item, {}, undefined)).toBe(await Item.count());
  });
});

describe('find, findOrFail and exists', () => {
  it('take the id alone: a second argument (an include, say) is refused, not ignored', async () => {
    const item = await Item.create({ title: 'found' });
    for (const method of ['find', 'findOrFail', 'exists'] as const) {
      const call = Item[method] as unknown as (id: string, options: unknown) => Promise<unknown>;
      const refused = await rejection(() => call.call(Item, item.id!, { include: ['author'] }));
      expect(refused).toBeInstanceOf(ArgumentError);
      expect((refused as Error).message).toBe(`CallArgItem.${method} takes an id alone; got an object after it`);
      // undefined is no argument, as everywhere
      expect(await call.call(Item, item.id!, undefined)).toBeTruthy();
    }
    await item.remove();
  });
});

describe('withLock, expire and increment', () => {
  it('refuse a work that is not a function, a bigint of seconds and a symbol for a counter, writing nothing', async () => {
    const item = await Item.create({ title: 'kept' });
    const before = await itemKeys();
    const locked = await rejection(() => Item.withLock(item.id, 5 as never));
    expect(locked).toBeInstanceOf(ArgumentError);
    expect((locked as Error).message).toBe('CallArgItem.withLock: work must be a function, got 5');
    // null is not "the default": ttlMs and waitMs take a whole number or nothing
    const nullTtl = await rejection(() => Item.withLock(item.id, async () => 1, { ttlMs: null as never }));
    expect((nullTtl as Error).message).toBe('CallArgItem: ttlMs must be a whole number >= 1, got null');
    const nullWait = await rejection(() => Item.withLock(item.id, async () => 1, { waitMs: null as never }));
    expect(nullWait).toBeInstanceOf(ArgumentError);
    const expired = await rejection(() => item.expire(5n as never));
    expect(expired).toBeInstanceOf(ArgumentError);
    expect((expired as Error).message).toMatch(/^CallArgItem: expire takes a positive number of seconds/);
    const incremented = await rejection(() => item.increment(Symbol('views') as never));
    expect(incremented).toBeInstanceOf(ArgumentError);
    expect((incremented as Error).message).toBe('CallArgItem.a symbol is not a @Counter attribute');
    expect(await itemKeys()).toEqual(before);
    // no lock key was left behind either: the lock is free at once
    expect(await Item.withLock(item.id, async (locked) => locked.title, { waitMs: 0 })).toBe('kept');
    await item.remove();
  });

  it('withLock refuses an option name it does not take, as the query calls do, before taking the lock', async () => {
    const item = await Item.create({ title: 'kept' });
    const before = await itemKeys();
    let ran = false;
    const misspelt = await rejection(() => Item.withLock(item.id, async () => (ran = true), { ttl: 100 } as never));
    expect(misspelt).toBeInstanceOf(ArgumentError);
    expect((misspelt as Error).message).toBe('withLock: unknown option "ttl" (withLock takes ttlMs, waitMs)');
    expect(ran).toBe(false);
    expect(await itemKeys()).toEqual(before);
    // an option set to undefined is absent, as everywhere
    expect(await Item.withLock(item.id, async (locked) => locked.title, { waitMs: 0, ttl: undefined } as never)).toBe('kept');
    await item.remove();
  });

  it('save, create, saveMany, removeMany, findMany, check, repair and reindex refuse an option name they do not take', async () => {
    const item = await Item.create({ title: 'kept' });
    item.title = 'changed';
    const before = await itemKeys();
    const refusals: Array<[string, () => Promise<unknown>, string]> = [
      [
        'save',
        () => item.save({ waitReplica: 1 } as never),
        'save: unknown option "waitReplica" (save takes validate, waitReplicas, waitTimeoutMs, ttl)',
      ],
      ['create', () => Item.create({ title: 'new' }, { valid: false } as never), 'save: unknown option "valid"'],
      [
        'saveMany',
        () => Item.saveMany([{ title: 'new' }], { chunk: 5 } as never),
        'saveMany: unknown option "chunk" (saveMany takes validate, waitReplicas, waitTimeoutMs, chunkSize)',
      ],
      [
        'removeMany',
        () => Item.removeMany([item.id], { batchSize: 5 } as never),
        'removeMany: unknown option "batchSize" (removeMany takes chunkSize)',
      ],
      [
        'findMany',
        () => Item.findMany([item.id], { batchSize: 5 } as never),
        'findMany: unknown option "batchSize" (findMany takes chunkSize)',
      ],
      ['check', () => Item.check({ batch: 5 } as never), 'unknown option "batch"'],
      ['repair', () => Item.repair({ chunkSize: 5 } as never), 'unknown option "chunkSize"'],
      ['reindex', () => Item.reindex({ size: 5 } as never), 'unknown option "size"'],
    ];
    for (const [call, run, message] of refusals) {
      const error = await rejection(run);
      expect({ call, error: error instanceof ArgumentError, message: (error as Error).message }).toEqual({
        call,
        error: true,
        message: expect.stringContaining(message),
      });
    }
    expect(await itemKeys()).toEqual(before);
    expect((await Item.findOrFail(item.id)).title).toBe('kept');
    // an option set to undefined is absent
    await item.save({ waitReplica: undefined } as never);
    expect((await Item.findOrFail(item.id)).title).toBe('changed');
    await item.remove();
  });
});

@Model({ name: 'CallArgVersioned' })
class Versioned extends BaseEntity {
  @Attr() title!: string;
  @Version() version?: number;
}

describe('a frozen instance', () => {
  it('is refused, before anything is sent, by the operations that write into it after Redis answers', async () => {
    const item = await Item.create({ title: 'frozen' });
    const versioned = await Versioned.create({ title: 'v' });
    versioned.title = 'changed';
    Object.freeze(item);
    Object.freeze(versioned);
    const before = (await keysUnder(redis.raw, redis.prefix)).sort();
    const rawBefore = await redis.raw.hGetAll(`${redis.prefix}:{CallArgVersioned}:obj:${versioned.id}`);
    for (const [operation, call] of [
      ['reload', () => item.reload()],
      ['increment', () => item.increment('views')],
      ['save', () => versioned.save()],
    ] as const) {
      const error = await rejection(call);
      expect(error).toBeInstanceOf(ArgumentError);
      expect((error as Error).message).toContain(`.${operation}: the instance is frozen`);
    }
    const bulk = await Versioned.saveMany([versioned]);
    expect(bulk.failed[0].error.message).toContain('saveMany: the instance is frozen');
    expect((await keysUnder(redis.raw, redis.prefix)).sort()).toEqual(before);
    expect(await redis.raw.hGetAll(`${redis.prefix}:{CallArgVersioned}:obj:${versioned.id}`)).toEqual(rawBefore);
    expect((await Item.findOrFail(item.id)).views).toBe(0);
  });
});
