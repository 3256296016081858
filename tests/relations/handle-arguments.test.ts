import { MaxLength } from 'class-validator';
import {
  ArgumentError,
  Attr,
  BaseEntity,
  BelongsTo,
  HasMany,
  Index,
  InvalidIdError,
  ManyToMany,
  Model,
  QueryError,
  RelationError,
  ReplicationError,
  ValidationError,
} from '../../src';
import { expectRelationsConsistent, snapshotKeys } from '../support/relation-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * What the relation handles accept: `set`, `add`, `remove` and `has` take an id or an instance of the target
 * model in the owner's tenant scope, nothing else; has-many wheres and create attributes are plain objects that
 * leave the foreign key to the handle; an owner without an id is a RelationError, always as a rejection from
 * the async methods. Every refusal is checked to have written nothing.
 */

@Model({ name: 'HaUser', group: 'ha' })
class HaUser extends BaseEntity {
  @Attr() name!: string;
  @HasMany(() => HaPost, { inverse: 'author', onDelete: 'cascade' }) posts!: HasMany<HaPost>;
  @ManyToMany(() => HaTag, { inverse: 'users' }) tags!: ManyToMany<HaTag>;
}

@Model({ name: 'HaPost', group: 'ha' })
class HaPost extends BaseEntity {
  @BelongsTo(() => HaUser) author!: BelongsTo<HaUser>;
  authorId?: string;
  @Attr() @Index() title!: string;
  @Attr() @Index({ scope: 'authorId' }) published!: Date;
}

@Model({ name: 'HaTag', group: 'ha' })
class HaTag extends BaseEntity {
  @Attr() @Index() label!: string;
  @ManyToMany(() => HaUser, { inverse: 'tags' }) users!: ManyToMany<HaUser>;
}

/** A has-many whose child has a class-validator rule, for create's validate option. */
@Model({ name: 'HaBlog', group: 'hab' })
class HaBlog extends BaseEntity {
  @Attr() name!: string;
  @HasMany(() => HaEntry, { inverse: 'blog', onDelete: 'cascade' }) entries!: HasMany<HaEntry>;
}

@Model({ name: 'HaEntry', group: 'hab' })
class HaEntry extends BaseEntity {
  @BelongsTo(() => HaBlog) blog!: BelongsTo<HaBlog>;
  blogId?: string;
  @Attr() @MaxLength(3) @Index() text!: string;
}

const redis = useTestRedis();

type ErrorClass = new (...args: never[]) => Error;

/** The error `run` throws, asserted to be of `type` with exactly `message` (or matching it). */
function expectThrow(run: () => unknown, type: ErrorClass, message: string | RegExp): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expectError(thrown, type, message);
}

/**
 * Calls `run`, which must not throw but return a promise that rejects with `type` and `message`: bad input to
 * an async method is a rejection, never a synchronous throw.
 */
async function expectRejection(run: () => Promise<unknown>, type: ErrorClass, message: string | RegExp): Promise<void> {
  let promise: Promise<unknown> | undefined;
  expect(() => (promise = run())).not.toThrow();
  expect(promise).toBeInstanceOf(Promise);
  let thrown: unknown;
  await promise!.catch((error: unknown) => (thrown = error));
  expectError(thrown, type, message);
}

function expectError(thrown: unknown, type: ErrorClass, message: string | RegExp): void {
  expect(thrown).toBeInstanceOf(type);
  if (typeof message === 'string') expect((thrown as Error).message).toBe(message);
  else expect((thrown as Error).message).toMatch(message);
}

const snapshot = () => snapshotKeys(redis.raw, redis.prefix);

/** Two users and two tags. */
async function people() {
  const ann = await HaUser.create({ name: 'ann' });
  const bob = await HaUser.create({ name: 'bob' });
  const red = await HaTag.create({ label: 'red' });
  const blue = await HaTag.create({ label: 'blue' });
  return { ann, bob, red, blue };
}

/** Two instances without an id: `unsaved`, and `created` once it is removed. */
async function withoutIds<T extends BaseEntity>(unsaved: T, created: Promise<T>): Promise<T[]> {
  const gone = await created;
  await gone.remove();
  return [unsaved, gone];
}

async function cleanUp(...objects: BaseEntity[]): Promise<void> {
  for (const object of objects) if (object.id !== undefined) await object.remove();
  expect(await HaUser.count()).toBe(0);
  expect(await HaPost.count()).toBe(0);
  expect(await HaTag.count()).toBe(0);
}

describe('@BelongsTo set()', () => {
  it('takes a target instance, an id or null', async () => {
    const { ann, bob, red, blue } = await people();
    const post = HaPost.build({ title: 'p', published: new Date(1) });
    post.author.set(ann);
    expect(post.authorId).toBe(ann.id);
    expect(post.author.value).toBe(ann); // the instance given is the parent: no read
    post.author.set(2);
    expect(post.authorId).toBe('2');
    expect(post.author.value).toBeUndefined();
    post.author.set(null);
    expect(post.authorId).toBeUndefined();
    post.author.set(bob.id!);
    await post.save();
    expect(await redis.raw.hGet(`${redis.prefix}:{ha}:HaPost:obj:${post.id}`, 'authorId')).toBe(bob.id);
    await cleanUp(post, ann, bob, red, blue);
  });

  it('refuses any other object with ArgumentError naming the relation and the value, changing nothing', async () => {
    const { ann, bob, red, blue } = await people();
    const post = HaPost.build({ title: 'p', published: new Date(1) });
    post.author.set(ann);
    await post.save();
    const before = await snapshot();
    const refused: Array<[unknown, string]> = [
      [blue, 'a HaTag'], // its id was taken as a HaUser id
      [{ id: bob.id }, 'an object'],
      [{ id: 'a:b' }, 'an object'],
      [{ id: 2 }, 'an object'],
      [Object.assign(Object.create(null) as object, { id: '2' }), 'an object'],
      [new Date(), 'a Date'],
      [new Map([['id', '2']]), 'a Map'],
      [['2'], 'an array'],
    ];
    for (const [value, described] of refused) {
      expectThrow(() => post.author.set(value as never), ArgumentError, `HaPost.author: expected a HaUser or its id, got ${described}`);
      expect(post.authorId).toBe(ann.id);
      expect(post.author.value).toBe(ann);
    }
    await post.save();
    expect(await snapshot()).toEqual(before);
    expect((await HaPost.findOrFail(post.id!)).authorId).toBe(ann.id);
    await cleanUp(post, ann, bob, red, blue);
  });

  it('refuses an instance of another tenant scope, naming both scopes', async () => {
    const AcmeUser = HaUser.scope('acme');
    const AcmePost = HaPost.scope('acme');
    const acmeAnn = await AcmeUser.create({ name: 'ann' });
    const ann = await HaUser.create({ name: 'ann' });
    const post = HaPost.build({ title: 'p', published: new Date(1) });
    const acmePost = AcmePost.build({ title: 'p', published: new Date(1) });
    expectThrow(() => post.author.set(acmeAnn), ArgumentError, 'HaPost.author: expected a HaUser or its id, got a HaUser of tenant "acme"');
    expectThrow(
      () => acmePost.author.set(ann),
      ArgumentError,
      'HaPost.author: expected a HaUser of tenant "acme" or its id, got a HaUser outside tenants',
    );
    expect(post.authorId).toBeUndefined();
    expect(acmePost.authorId).toBeUndefined();
    acmePost.author.set(acmeAnn);
    await acmePost.save();
    expect(await acmeAnn.posts.count()).toBe(1);
    await acmeAnn.remove();
    expect(await AcmePost.count()).toBe(0);
    await cleanUp(ann);
  });

  it('refuses an instance without an id (unsaved, or removed) with RelationError', async () => {
    const { ann, bob, red, blue } = await people();
    const post = HaPost.build({ title: 'p', published: new Date(1) });
    post.author.set(ann);
    const unsaved = await withoutIds(HaUser.build({ name: 'new' }), HaUser.create({ name: 'gone' }));
    for (const parent of unsaved) {
      expectThrow(() => post.author.set(parent), RelationError, 'HaPost.author: the HaUser is not saved (or was removed)');
      expect(post.authorId).toBe(ann.id);
    }
    await cleanUp(ann, bob, red, blue);
  });

  it('checks an id given directly as every id is checked', async () => {
    const post = HaPost.build({ title: 'p', published: new Date(1) });
    for (const id of ['a:b', '', -1, 1.5, true, 'x'.repeat(129)]) {
      expectThrow(() => post.author.set(id as never), InvalidIdError, /^HaUser: invalid id /);
      expect(post.authorId).toBeUndefined();
    }
  });
});

describe('@ManyToMany add(), remove(), has()', () => {
  it('refuse any object but a target instance, before writing or reading anything', async () => {
    const { ann, bob, red, blue } = await people();
    await ann.tags.add(blue);
    const before = await snapshot();
    const refused: Array<[unknown, string]> = [
      [bob, 'a HaUser'],
      [{ id: blue.id }, 'an object'],
      [{ id: 2 }, 'an object'],
      [{ id: 'a:b' }, 'an object'],
      [new Date(), 'a Date'],
      [[blue.id], 'an array'],
      [HaTag.scope('acme').build({ label: 'x' }), 'a HaTag of tenant "acme"'],
    ];
    for (const [value, described] of refused) {
      const message = `HaUser.tags: expected a HaTag or its id, got ${described}`;
      await expectRejection(() => ann.tags.add(value as never), ArgumentError, message);
      await expectRejection(() => ann.tags.remove(value as never), ArgumentError, message);
      await expectRejection(() => ann.tags.has(value as never), ArgumentError, message);
    }
    await expectRejection(() => blue.users.remove(red as never), ArgumentError, 'HaTag.users: expected a HaUser or its id, got a HaTag');
    expect(await snapshot()).toEqual(before);
    expect(await ann.tags.ids()).toEqual([blue.id]);
    expect(await blue.users.ids()).toEqual([ann.id]);
    await expectRelationsConsistent([HaUser, HaTag], redis.raw, redis.prefix);
    await cleanUp(ann, bob, red, blue);
  });

  it('refuse a target instance without an id with RelationError, and a bad id with InvalidIdError', async () => {
    const { ann, bob, red, blue } = await people();
    await ann.tags.add(red);
    const unsaved = await withoutIds(HaTag.build({ label: 'new' }), HaTag.create({ label: 'gone' }));
    const before = await snapshot();
    for (const tag of unsaved) {
      const message = 'HaUser.tags: the HaTag is not saved (or was removed)';
      await expectRejection(() => ann.tags.add(tag), RelationError, message);
      await expectRejection(() => ann.tags.remove(tag), RelationError, message);
      await expectRejection(() => ann.tags.has(tag), RelationError, message);
    }
    for (const id of ['a:b', '', -1, null, undefined]) {
      await expectRejection(() => ann.tags.add(id as never), InvalidIdError, /^HaTag: invalid id /);
      await expectRejection(() => ann.tags.remove(id as never), InvalidIdError, /^HaTag: invalid id /);
      await expectRejection(() => ann.tags.has(id as never), InvalidIdError, /^HaTag: invalid id /);
    }
    expect(await snapshot()).toEqual(before);
    // what they accept still works
    expect(await ann.tags.has(red)).toBe(true);
    expect(await ann.tags.has(Number(blue.id))).toBe(false);
    await ann.tags.add(blue.id!);
    await ann.tags.remove(red);
    expect(await ann.tags.ids()).toEqual([blue.id]);
    await expectRelationsConsistent([HaUser, HaTag], redis.raw, redis.prefix);
    await cleanUp(ann, bob, red, blue);
  });

  it('reject on an owner without an id (unsaved, or removed) with RelationError, as @HasMany does', async () => {
    const { ann, bob, red, blue } = await people();
    await bob.tags.add(red);
    const unsaved = await withoutIds(HaUser.build({ name: 'new' }), HaUser.create({ name: 'gone' }));
    const before = await snapshot();
    for (const owner of unsaved) {
      const message = 'HaUser: save the object before using its relations';
      await expectRejection(() => owner.tags.add(red), RelationError, message);
      await expectRejection(() => owner.tags.add(red.id!), RelationError, message);
      await expectRejection(() => owner.tags.remove(red), RelationError, message);
      await expectRejection(() => owner.tags.has(red), RelationError, message);
      await expectRejection(() => owner.tags.ids(), RelationError, message);
      await expectRejection(() => owner.tags.list(), RelationError, message);
      await expectRejection(() => owner.tags.count(), RelationError, message);
    }
    await expectRejection(
      () => HaTag.build({ label: 'new' }).users.add(ann),
      RelationError,
      'HaTag: save the object before using its relations',
    );
    expect(await snapshot()).toEqual(before);
    await cleanUp(ann, bob, red, blue);
  });
});

describe('@HasMany', () => {
  /** Ann with two posts, Bob with one. */
  async function authors() {
    const ann = await HaUser.create({ name: 'ann' });
    const bob = await HaUser.create({ name: 'bob' });
    const a1 = await ann.posts.create({ title: 'a1', published: new Date(1) });
    const a2 = await ann.posts.create({ title: 'a2', published: new Date(2) });
    const b1 = await bob.posts.create({ title: 'b1', published: new Date(3) });
    return { ann, bob, a1, a2, b1 };
  }

  /** Every query method of the handle with `where`; iterate's error comes from its first next(). */
  function queries(owner: HaUser, where: unknown): Array<() => Promise<unknown>> {
    const w = where as never;
    return [
      () => owner.posts.findBy(w),
      () => owner.posts.findOneBy(w),
      () => owner.posts.findIds(w),
      () => owner.posts.count(w),
      () => owner.posts.iterate(w).next(),
    ];
  }

  it('rejects on an owner without an id (unsaved, or removed), create included, writing nothing', async () => {
    const { ann, bob } = await authors();
    const unsaved = await withoutIds(HaUser.build({ name: 'new' }), HaUser.create({ name: 'gone' }));
    const before = await snapshot();
    for (const owner of unsaved) {
      const message = 'HaUser: save the object before using its relations';
      for (const query of queries(owner, {})) await expectRejection(query, RelationError, message);
      await expectRejection(() => owner.posts.findBy(), RelationError, message);
      const iterator = owner.posts.iterate(); // made without a throw; fails on the first next()
      await expectRejection(() => iterator.next(), RelationError, message);
      await expectRejection(() => owner.posts.create({ title: 'x', published: new Date(9) }), RelationError, message);
    }
    expect(await snapshot()).toEqual(before);
    expect(await HaPost.count()).toBe(3);
    await cleanUp(ann, bob);
  });

  it('refuses a where that is not a plain object with QueryError', async () => {
    const { ann, bob, a1, a2 } = await authors();
    for (const where of [new Date(), new Map(), 'a1', ['a1'], null, 42]) {
      for (const query of queries(ann, where)) await expectRejection(query, QueryError, /^HaPost: a where must be an object/);
    }
    // undefined is no condition, and a null-prototype object is a plain where
    expect(await ann.posts.findIds(undefined)).toEqual([a1.id, a2.id]);
    expect(await ann.posts.findIds(Object.assign(Object.create(null) as object, { title: 'a2' }))).toEqual([a2.id]);
    await cleanUp(ann, bob);
  });

  it('refuses a where naming the foreign key with QueryError; inside an OR it is ANDed with the owner', async () => {
    const { ann, bob, a1, a2, b1 } = await authors();
    const message = 'HaPost.authorId is set by HaUser.posts; leave it out';
    for (const where of [
      { authorId: bob.id },
      { authorId: { in: [bob.id, ann.id] } },
      { authorId: ann.id, title: 'a1' },
      { authorId: null },
    ]) {
      for (const query of queries(ann, where)) await expectRejection(query, QueryError, message);
    }
    expect(await ann.posts.findIds({ authorId: undefined } as never)).toEqual([a1.id, a2.id]);
    expect(await ann.posts.findIds({ OR: [{ authorId: bob.id }, { title: 'a2' }] } as never)).toEqual([a2.id]);
    expect(await ann.posts.findIds({ OR: [{ authorId: bob.id }] } as never)).toEqual([]);
    expect(await bob.posts.findIds({ OR: [{ authorId: bob.id }] } as never)).toEqual([b1.id]);
    await cleanUp(ann, bob);
  });

  it('create refuses attributes naming the foreign key, or not an object, with ArgumentError, writing nothing', async () => {
    const { ann, bob } = await authors();
    const before = await snapshot();
    await expectRejection(
      () => ann.posts.create({ title: 'x', published: new Date(9), authorId: bob.id } as never),
      ArgumentError,
      'HaPost.authorId is set by HaUser.posts; leave it out',
    );
    await expectRejection(
      () => ann.posts.create({ title: 'x', published: new Date(9), authorId: null } as never),
      ArgumentError,
      /is set by HaUser.posts/,
    );
    const refused = [
      [new Date(), 'a Date'],
      [new Map([['title', 'x']]), 'a Map'],
      [new Set(['x']), 'a Set'],
      [['x'], 'an array'],
      [null, 'null'],
      ['x', '"x"'],
    ] as const;
    for (const [attributes, described] of refused) {
      await expectRejection(
        () => ann.posts.create(attributes as never),
        ArgumentError,
        `HaUser.posts.create: the attributes must be an object, got ${described}`,
      );
    }
    const [a1] = await ann.posts.findBy({ title: 'a1' });
    await expectRejection(
      () => ann.posts.create(a1 as never),
      ArgumentError,
      'HaUser.posts.create: the attributes must be an object, not an entity; got a HaPost',
    );
    expect(await snapshot()).toEqual(before);
    expect(await ann.posts.count()).toBe(2);
    expect(await bob.posts.count()).toBe(1);
    // an instance of a class of one's own is attributes, as HaPost.create takes it
    class Draft {
      title = 'a4';
      published = new Date(5);
    }
    expect((await ann.posts.create(new Draft())).authorId).toBe(ann.id);
    await (await ann.posts.findOneBy({ title: 'a4' }))!.remove();
    const made = await ann.posts.create({ title: 'a3', published: new Date(4), authorId: undefined } as never);
    expect(made.authorId).toBe(ann.id);
    expect(await ann.posts.count()).toBe(3);
    await expectRelationsConsistent([HaUser, HaPost], redis.raw, redis.prefix);
    await cleanUp(ann, bob);
  });
});

describe("the handles' methods take the options of the model's methods", () => {
  /** The error `run` rejects with; it must not throw at the call, nor resolve. */
  async function rejectionOf(run: () => Promise<unknown>): Promise<Error> {
    let promise: Promise<unknown> | undefined;
    expect(() => (promise = run())).not.toThrow();
    return promise!.then(
      (value) => {
        throw new Error(`expected a rejection, got ${String(value)}`);
      },
      (error: unknown) => error as Error,
    );
  }

  it('has-many create passes its options on: validate: false skips class-validator, as from the model', async () => {
    const blog = await HaBlog.create({ name: 'b' });
    await expectRejection(() => blog.entries.create({ text: 'toolong' }), ValidationError, /text/);
    const made = await blog.entries.create({ text: 'toolong' }, { validate: false });
    expect((await HaEntry.findOrFail(made.id)).text).toBe('toolong');
    expect(made.blogId).toBe(blog.id);
    expect(await blog.entries.findIds({ text: 'toolong' })).toEqual([made.id]);
    await blog.remove();
    expect(await HaEntry.count()).toBe(0);
  });

  it("has-many create refuses what the model's create refuses: a misspelt option, a validate of another kind", async () => {
    const blog = await HaBlog.create({ name: 'b' });
    const before = await snapshot();
    const refusals: Array<[unknown, string]> = [
      [{ waitReplica: 3 }, 'save: unknown option "waitReplica" (save takes validate, waitReplicas, waitTimeoutMs, ttl)'],
      [{ validate: 'false' }, 'save: validate must be true or false, got "false"'],
      [{ waitReplicas: 1.5 }, 'HaEntry: waitReplicas must be a whole number from 0 to 100 (got 1.5)'],
      [null, 'save: options must be an object, got null'],
    ];
    for (const [options, message] of refusals) {
      const fromModel = await rejectionOf(() => HaEntry.create({ text: 'ok', blogId: blog.id }, options as never));
      const fromHandle = await rejectionOf(() => blog.entries.create({ text: 'ok' }, options as never));
      expect([fromHandle.constructor, fromHandle.message]).toEqual([ArgumentError, message]);
      expect([fromModel.constructor, fromModel.message]).toEqual([ArgumentError, message]);
    }
    expect(await snapshot()).toEqual(before);
    await blog.remove();
  });

  it('has-many create waits for the replicas waitReplicas asks for (none here: ReplicationError, the write stands)', async () => {
    const blog = await HaBlog.create({ name: 'b' });
    const error = await rejectionOf(() => blog.entries.create({ text: 'rep' }, { waitReplicas: 1, waitTimeoutMs: 20 }));
    expect(error).toBeInstanceOf(ReplicationError);
    expect(await blog.entries.findIds({ text: 'rep' })).toHaveLength(1);
    await blog.remove();
  });

  it("has-many count refuses options as the model's count does; undefined is none", async () => {
    const blog = await HaBlog.create({ name: 'b' });
    await blog.entries.create({ text: 'one' });
    await blog.entries.create({ text: 'two' });
    const count = blog.entries.count as unknown as (where: object, options: unknown) => Promise<number>;
    for (const options of [{ limit: 1 }, { limit: 0 }, 1, null]) {
      const fromHandle = await rejectionOf(() => count.call(blog.entries, {}, options));
      const fromModel = await rejectionOf(() => (HaEntry.count as unknown as typeof count).call(HaEntry, {}, options));
      expect(fromHandle).toBeInstanceOf(ArgumentError);
      expect(fromHandle.message).toBe(fromModel.message);
      expect(fromHandle.message).toMatch(/^HaEntry\.count takes a where alone, it has no options; got /);
    }
    const later = blog.entries.count as unknown as (where: object, ...rest: unknown[]) => Promise<number>;
    expect((await rejectionOf(() => later.call(blog.entries, {}, undefined, { limit: 1 }))).message).toMatch(
      /^HaEntry\.count takes a where alone/,
    );
    expect(await count.call(blog.entries, {}, undefined)).toBe(2);
    expect(await blog.entries.count({ text: 'one' })).toBe(1);
    await blog.remove();
  });

  it("has-many queries refuse the options the model's queries refuse, with the same errors", async () => {
    const blog = await HaBlog.create({ name: 'b' });
    await blog.entries.create({ text: 'one' });
    const refused: Array<[string, () => Promise<unknown>, () => Promise<unknown>]> = [
      ['findBy', () => blog.entries.findBy({}, { order: 1 } as never), () => HaEntry.findBy({}, { order: 1 } as never)],
      ['findOneBy', () => blog.entries.findOneBy({}, { limit: 3 } as never), () => HaEntry.findOneBy({}, { limit: 3 } as never)],
      [
        'findIds',
        () => blog.entries.findIds({}, { include: ['blog'] } as never),
        () => HaEntry.findIds({}, { include: ['blog'] } as never),
      ],
      ['iterate', () => blog.entries.iterate({}, { limit: 1 } as never).next(), () => HaEntry.iterate({}, { limit: 1 } as never).next()],
      ['findBy null', () => blog.entries.findBy({}, null as never), () => HaEntry.findBy({}, null as never)],
    ];
    for (const [call, fromHandle, fromModel] of refused) {
      const [handleError, modelError] = [await rejectionOf(fromHandle), await rejectionOf(fromModel)];
      expect({ call, type: handleError.constructor, message: handleError.message }).toEqual({
        call,
        type: modelError.constructor,
        message: modelError.message,
      });
      expect(handleError).toBeInstanceOf(ArgumentError);
    }
    await blog.remove();
  });

  it('many-to-many add, remove and has take the object or id alone, and belongs-to load nothing: more is refused, writing nothing', async () => {
    const { ann, bob, red, blue } = await people();
    await ann.tags.add(blue);
    const before = await snapshotKeys(redis.raw, redis.prefix);
    const untyped = ann.tags as unknown as Record<'add' | 'remove' | 'has', (related: unknown, extra: unknown) => Promise<unknown>>;
    for (const method of ['add', 'remove', 'has'] as const) {
      await expectRejection(
        () => untyped[method](red, { inverse: false }),
        ArgumentError,
        `HaUser.tags.${method} takes an object or an id alone; got an object after it`,
      );
      await expectRejection(
        () => untyped[method](blue.id, 'red'),
        ArgumentError,
        `HaUser.tags.${method} takes an object or an id alone; got "red" after it`,
      );
    }
    expect(await snapshotKeys(redis.raw, redis.prefix)).toEqual(before);
    // undefined is no argument, as everywhere
    await untyped.add(red, undefined);
    expect(await untyped.has(red, undefined)).toBe(true);
    await untyped.remove(red, undefined);
    expect(await ann.tags.ids()).toEqual([blue.id]);

    const post = HaPost.build({ title: 'p', published: new Date(0) });
    post.author.set(ann);
    await post.save();
    const loaded = await HaPost.findOrFail(post.id!);
    const load = loaded.author.load as unknown as (options: unknown) => Promise<unknown>;
    await expectRejection(
      () => load.call(loaded.author, { include: ['posts'] }),
      ArgumentError,
      'HaPost.author.load takes no arguments; got an object',
    );
    expect(((await load.call(loaded.author, undefined)) as HaUser).id).toBe(ann.id);
    await post.remove();
    await cleanUp(ann, bob, red, blue);
  });

  it("many-to-many ids and count take no arguments, and refuse one given; list takes a page and findMany's options", async () => {
    const { ann, bob, red, blue } = await people();
    await ann.tags.add(red);
    await ann.tags.add(blue);
    const untyped = ann.tags as unknown as Record<'ids' | 'count' | 'list', (argument: unknown) => Promise<unknown>>;
    for (const [method, argument, named] of [
      ['ids', { limit: 1 }, 'an object'],
      ['count', { label: 'red' }, 'an object'],
      ['count', 'red', '"red"'],
    ] as const) {
      await expectRejection(() => untyped[method](argument), ArgumentError, `HaUser.tags.${method} takes no arguments; got ${named}`);
    }
    await expectRejection(
      () => untyped.list({ order: 'asc' }),
      ArgumentError,
      'HaUser.tags.list: unknown option "order" (HaUser.tags.list takes offset, limit, chunkSize)',
    );
    await expectRejection(() => untyped.list({ limit: -1 }), ArgumentError, 'HaUser.tags.list: limit must be a whole number >= 0, got -1');
    await expectRejection(
      () => untyped.list({ offset: '1' }),
      ArgumentError,
      'HaUser.tags.list: offset must be a whole number >= 0, got "1"',
    );
    await expectRejection(
      () => untyped.list({ chunkSize: 0 }),
      ArgumentError,
      /^HaUser\.tags\.list: chunkSize must be a whole number from 1 to/,
    );
    expect(await untyped.ids(undefined)).toEqual([red.id, blue.id]);
    expect(await untyped.count(undefined)).toBe(2);
    expect((await ann.tags.list({ chunkSize: 1 })).map((tag) => tag.label)).toEqual(['red', 'blue']);
    expect((await ann.tags.list({ offset: 1, limit: 5 })).map((tag) => tag.label)).toEqual(['blue']);
    await cleanUp(ann, bob, red, blue);
  });
});
