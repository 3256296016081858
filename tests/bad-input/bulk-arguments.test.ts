import {
  AfterLoad,
  AfterRemove,
  ArgumentError,
  Attr,
  BaseEntity,
  BeforeSave,
  DecodeError,
  Index,
  InvalidIdError,
  Model,
  Unique,
} from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * The bulk calls (saveMany, removeMany, findMany) and the other calls that take options, given what a
 * JavaScript caller can pass: null options, sparse arrays, ids with no string form, hooks that throw values
 * that are not Errors, objects that cannot be loaded. Each is a typed error, of the call or of its own item,
 * and nothing is half-written.
 */

@Model({ name: 'BulkArgNote' })
class Note extends BaseEntity {
  @Attr() @Index() tag!: string;
  @Attr() size?: number;
}

/** Removal hooks: removeMany loads the objects first; AfterLoad refuses the ones tagged 'unreadable'. */
const afterRemoveRan: string[] = [];
@Model({ name: 'BulkArgHooked' })
class Hooked extends BaseEntity {
  @Attr() @Index() tag!: string;
  @Attr() size?: number;

  @AfterLoad() refuse(): void {
    if (this.tag === 'unreadable') throw new Error('cannot be read');
  }

  @AfterRemove() record(): void {
    afterRemoveRan.push(this.id!);
  }
}

/** A BeforeSave hook that throws what the item's tag says: a string, undefined, or nothing. */
@Model({ name: 'BulkArgThrower' })
class Thrower extends BaseEntity {
  @Attr() tag!: string;

  @BeforeSave() check(): void {
    if (this.tag === 'string') throw 'refused by hook';
    if (this.tag === 'undefined') throw undefined;
  }
}

/** A unique value: its creates go through save-many.lua rather than one MULTI per chunk. */
@Model({ name: 'BulkArgCoded' })
class Coded extends BaseEntity {
  @Attr() @Unique() code!: string;
}

const redis = useTestRedis();
const noteKeys = () => keysUnder(redis.raw, `${redis.prefix}:{BulkArgNote}`);
const rejection = (work: () => Promise<unknown>) =>
  work().then(
    () => undefined,
    (error: unknown) => error,
  );

describe('options that are not an object', () => {
  it('reject every call that takes options with ArgumentError naming the call, before anything is written', async () => {
    const stored = await Note.create({ tag: 'a' });
    const before = (await noteKeys()).sort();
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['saveMany', () => Note.saveMany([{ tag: 'b' }], null as never)],
      ['removeMany', () => Note.removeMany([stored.id], null as never)],
      ['findMany', () => Note.findMany([stored.id], null as never)],
      ['save', () => Note.build({ tag: 'c' }).save(null as never)],
      ['save', () => Note.create({ tag: 'd' }, 'fast' as never)],
      ['findBy', () => Note.findBy({ tag: 'a' }, null as never)],
      ['findOneBy', () => Note.findOneBy({ tag: 'a' }, null as never)],
      ['findIds', () => Note.findIds({ tag: 'a' }, [] as never)],
      [
        'iterate',
        async () => {
          for await (const note of Note.iterate({ tag: 'a' }, null as never)) void note;
        },
      ],
      ['withLock', () => Note.withLock(stored.id, async () => 1, null as never)],
      ['check, repair and reindex', () => Note.check(null as never)],
      ['check, repair and reindex', () => Note.repair(42 as never)],
    ];
    for (const [name, call] of calls) {
      const error = await rejection(call);
      expect(error).toBeInstanceOf(ArgumentError);
      expect((error as Error).message).toContain(`${name}: options must be an object, got`);
    }
    expect((await noteKeys()).sort()).toEqual(before);
    expect(await Note.count()).toBe(1);
  });

  it('name a string chunkSize as a string, and a bad batchSize with ArgumentError', async () => {
    const error = await rejection(() => Note.findMany(['1'], { chunkSize: '10' as never }));
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as Error).message).toBe('findMany: chunkSize must be a whole number from 1 to 10000, got "10"');
    expect(await rejection(() => Note.check({ batchSize: 1.5 }))).toBeInstanceOf(ArgumentError);
  });
});

describe('findMany', () => {
  it('refuses an argument that is not an array with ArgumentError, and a hole in a sparse array with InvalidIdError', async () => {
    for (const given of [null, 'abc', 42, {}, new Set(['1'])]) {
      const error = await rejection(() => Note.findMany(given as never));
      expect(error).toBeInstanceOf(ArgumentError);
      expect((error as Error).message).toMatch(/^findMany: expected an array of ids, got /);
    }
    const stored = await Note.create({ tag: 'sparse' });
    const sparse: string[] = [stored.id];
    sparse[2] = stored.id;
    const error = await rejection(() => Note.findMany(sparse));
    expect(error).toBeInstanceOf(InvalidIdError);
    expect((error as InvalidIdError).id).toBeUndefined();
  });
});

describe('removeMany', () => {
  it('reports holes and ids with no string form per item, and removes the valid ids', async () => {
    const { saved } = await Note.saveMany([{ tag: 'x' }, { tag: 'y' }]);
    const ids: unknown[] = [saved[0].id];
    ids[2] = Object.create(null);
    ids[3] = [1];
    ids[4] = 7n;
    ids[5] = saved[1].id;
    const result = await Note.removeMany(ids as never);
    expect(result.removed).toEqual([saved[0].id, saved[1].id]);
    expect(result.failed.map(({ index, id, removed }) => ({ index, id, removed }))).toEqual([
      { index: 1, id: 'undefined', removed: false },
      { index: 2, id: 'an object', removed: false },
      { index: 3, id: 'an array', removed: false },
      { index: 4, id: '7n', removed: false },
    ]);
    for (const failure of result.failed) expect(failure.error).toBeInstanceOf(InvalidIdError);
    expect(result.failed[2].error.message).toMatch(/^BulkArgNote: invalid id an array: ids are 1 to 128 characters/);
    expect(await Note.findMany([saved[0].id, saved[1].id])).toEqual([null, null]);
  });

  it('reports an invalid id given twice once, at its first position', async () => {
    const result = await Note.removeMany(['a:b', '999', 'a:b', -1, -1]);
    expect(result.failed.map(({ index, id }) => ({ index, id }))).toEqual([
      { index: 0, id: 'a:b' },
      { index: 3, id: '-1' },
    ]);
    expect(result.missing).toEqual(['999']);
  });

  it('with removal hooks: an object that cannot be loaded fails alone and is kept; the others are removed', async () => {
    const { saved } = await Hooked.saveMany([
      { tag: 'ok', size: 1 },
      { tag: 'unreadable', size: 2 },
      { tag: 'ok', size: 3 },
      { tag: 'corrupt', size: 4 },
      { tag: 'ok', size: 5 },
    ]);
    const [first, unreadable, third, corrupt, fifth] = saved.map((note) => note.id);
    await redis.raw.hSet(`${redis.prefix}:{BulkArgHooked}:obj:${corrupt}`, 'size', 'not a number');
    afterRemoveRan.length = 0;

    const result = await Hooked.removeMany([first, unreadable, third, corrupt, fifth], { chunkSize: 2 });
    expect(result.removed).toEqual([first, third, fifth]);
    expect(afterRemoveRan).toEqual([first, third, fifth]);
    expect(result.failed.map(({ id, removed }) => ({ id, removed }))).toEqual([
      { id: unreadable, removed: false },
      { id: corrupt, removed: false },
    ]);
    expect(result.failed[0].error.message).toBe('cannot be read');
    expect(result.failed[1].error).toBeInstanceOf(DecodeError);
    // the two that failed are kept whole, with their index entries
    expect(await Hooked.findIds({ tag: 'unreadable' })).toEqual([unreadable]);
    expect(await Hooked.findIds({ tag: 'corrupt' })).toEqual([corrupt]);
    expect(await Hooked.count()).toBe(2);
    await expectIndexesConsistent(Hooked, redis.raw, redis.prefix);
    await redis.raw.hSet(`${redis.prefix}:{BulkArgHooked}:obj:${corrupt}`, 'size', '4');
    expect((await Hooked.removeMany([corrupt])).removed).toEqual([corrupt]);
  });
});

describe('saveMany', () => {
  it('reports a thrown value that is not an Error as an Error holding it as its cause; the other items are saved', async () => {
    const result = await Thrower.saveMany([{ tag: 'string' }, { tag: 'fine' }, { tag: 'undefined' }]);
    expect(result.saved.map((item) => item.tag)).toEqual(['fine']);
    const [byString, byUndefined] = result.failed;
    expect(byString.index).toBe(0);
    expect(byString.error).toBeInstanceOf(Error);
    expect(byString.error.message).toBe('refused by hook');
    expect(byString.error.cause).toBe('refused by hook');
    expect(byUndefined.index).toBe(2);
    expect(byUndefined.error.message).toBe('a value that is not an Error was thrown: undefined');
    expect('cause' in byUndefined.error).toBe(true);
    expect(byUndefined.error.cause).toBeUndefined();
    expect(await Thrower.count()).toBe(1);
  });

  it('names what an item is when it is neither an instance of the model nor an attribute object', async () => {
    const stored = await Note.create({ tag: 'other model' });
    const count = await Thrower.count();
    const result = await Thrower.saveMany([new Date(0) as never, stored as never, new Map() as never]);
    expect(result.failed.map((failure) => failure.error.message)).toEqual([
      'BulkArgThrower.saveMany: expected a BulkArgThrower instance or an attribute object, got a Date',
      'BulkArgThrower.saveMany: a Note instance is not a BulkArgThrower of this scope',
      'BulkArgThrower.saveMany: expected a BulkArgThrower instance or an attribute object, got a Map',
    ]);
    for (const failure of result.failed) expect(failure.error).toBeInstanceOf(ArgumentError);
    expect(await Thrower.count()).toBe(count);
  });

  it("reports an object with the model's prototype that no constructor made (Object.create, a Proxy) as its own ArgumentError", async () => {
    const count = await Note.count();
    const made = Object.assign(Object.create(Note.prototype) as Note, { tag: 'made by Object.create' });
    const proxied = new Proxy(Note.build({ tag: 'proxied' }), {});
    const result = await Note.saveMany([{ tag: 'fine' }, made, proxied]);
    expect(result.saved.map((note) => note.tag)).toEqual(['fine']);
    expect(result.failed.map((failure) => [failure.index, failure.error.constructor.name, failure.written])).toEqual([
      [1, 'ArgumentError', false],
      [2, 'ArgumentError', false],
    ]);
    expect(result.failed[0].error.message).toBe(
      "a Note was not made by its class's constructor (Object.create or a Proxy, say): make instances with new or Model.build",
    );
    expect(await Note.count()).toBe(count + 1);
    // the single operations reject (not throw) with the same error
    await expect(made.save()).rejects.toThrow(ArgumentError);
    await expect(made.remove()).rejects.toThrow(ArgumentError);
  });

  it('reports an attribute read that throws undefined as a failure of its item, on every write path', async () => {
    const throwing = <T extends object>(entity: T, property: string): T =>
      Object.defineProperty(entity, property, {
        get() {
          throw undefined;
        },
        enumerable: true,
        configurable: true,
      });
    // a create with nothing to check (one MULTI per chunk), a create through save-many.lua, an update
    const plain = throwing(Note.build({ tag: 'x' }), 'tag');
    const created = await Coded.saveMany([{ code: 'fine' }, throwing(Coded.build({ code: 'y' }), 'code')]);
    const viaMulti = await Note.saveMany([{ tag: 'fine' }, plain]);
    const loaded = (await Note.find((await Note.create({ tag: 'stored' })).id))!;
    const updated = await Note.saveMany([throwing(loaded, 'size')]);
    for (const [result, index] of [
      [viaMulti, 1],
      [created, 1],
      [updated, 0],
    ] as const) {
      expect(result.failed.map((failure) => [failure.index, failure.error.message, failure.written])).toEqual([
        [index, 'a value that is not an Error was thrown: undefined', false],
      ]);
    }
    expect(plain.isPersisted()).toBe(false);
    expect(viaMulti.saved).toHaveLength(1);
    expect(created.saved).toHaveLength(1);
    expect(updated.saved).toHaveLength(0);
  });
});
