import {
  Attr,
  BaseEntity,
  BelongsTo,
  Counter,
  HasMany,
  Index,
  ManyToMany,
  Model,
  Persisted,
  RemoveManyResult,
  SaveManyResult,
  Unique,
} from '../../src';
import { useTestRedis } from '../support/test-redis';
import * as keySnapshots from './support/key-snapshots';

/**
 * A key of the layout holding another Redis type (a string written by hand at `all`, `exp`, `seq`, an index or
 * a unique hash): every operation that reads or writes it is refused with a WrongTypeError naming the key and
 * the type it should hold, and leaves every key exactly as it was.
 */

@Model()
class WtNote extends BaseEntity {
  @Attr() text?: string;
}

@Model()
class WtPost extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr() @Index() score?: number;
  @Attr() @Unique() slug?: string;
  @Counter() views = 0;
}

@Model({ ttl: 3600 })
class WtLog extends BaseEntity {
  @Attr() @Index() level?: string;
}

@Model({ group: 'wt' })
class WtAuthor extends BaseEntity {
  @Attr() name?: string;
  @HasMany(() => WtBook, { inverse: 'author', onDelete: 'cascade' }) books!: HasMany<WtBook>;
}

@Model({ group: 'wt' })
class WtBook extends BaseEntity {
  @Attr() title?: string;
  @BelongsTo(() => WtAuthor) author!: BelongsTo<WtAuthor>;
  authorId?: string;
}

/** Many-to-many: both sides declared (`rel:` sets on each), and one declared on one side (`rev:` on the other). */
@Model({ group: 'wt' })
class WtReader extends BaseEntity {
  @Attr() name?: string;
  @ManyToMany(() => WtShelf, { inverse: 'readers' }) shelves!: ManyToMany<WtShelf>;
  @ManyToMany(() => WtShelf) pinned!: ManyToMany<WtShelf>;
}

@Model({ group: 'wt' })
class WtShelf extends BaseEntity {
  @Attr() label?: string;
  @ManyToMany(() => WtReader, { inverse: 'shelves' }) readers!: ManyToMany<WtReader>;
}

/** A model whose bulk creates take the plain path: a MULTI of native commands per chunk. */
@Model()
class WtTag extends BaseEntity {
  @Attr() @Index() topic?: string;
}

/** A model with two set, two sorted and one lexicographic index and nothing to check: create-plain.lua. */
@Model()
class WtMulti extends BaseEntity {
  @Attr() @Index() a?: string;
  @Attr() @Index() b?: string;
  @Attr() @Index() c?: number;
  @Attr() @Index() d?: number;
  @Attr() @Index({ sortable: true }) e?: string;
}

/** A unique value ahead of a set index: a refused set entry puts the removed unique value back. */
@Model()
class WtCoded extends BaseEntity {
  @Attr() @Unique() code?: string;
  @Attr() @Index() tag?: string;
  @Attr() @Index() rank?: number;
}

const MULTI_KEYS = [
  ['all', 'zset'],
  ['seq', 'string'],
  ['idx:a:x', 'set'],
  ['idx:b:y', 'set'],
  ['idx:c', 'zset'],
  ['idx:d', 'zset'],
  ['lex:e', 'zset'],
] as const;

const redis = useTestRedis();
const grouped = new Set(['WtAuthor', 'WtBook', 'WtReader', 'WtShelf']);
const key = (model: string, name: string) =>
  grouped.has(model) ? `${redis.prefix}:{wt}:${model}:${name}` : `${redis.prefix}:{${model}}:${name}`;

const expectRefused = (damaged: string, expected: string, operation: () => Promise<unknown>) =>
  keySnapshots.expectRefused(redis.raw, redis.prefix, damaged, expected, operation);
/** As expectRefused, for a saveMany of new objects: the ids it drew are not given back (key-snapshots.ts). */
const expectRefusedDrawing = (damaged: string, expected: string, operation: () => Promise<unknown>) =>
  keySnapshots.expectRefused(redis.raw, redis.prefix, damaged, expected, operation, true);

/** A bulk call's outcome as one promise: it rejects with the first item's error, which every item shares. */
async function bulk(result: Promise<SaveManyResult<object>>): Promise<void> {
  const { failed } = await result;
  if (failed.length > 0) {
    expect(failed.every(({ error, written }) => error === failed[0].error && !written)).toBe(true);
    throw failed[0].error;
  }
}

/** A removeMany's outcome as one promise: it rejects with the first id's error, which every id shares. */
async function bulkRemoval(result: Promise<RemoveManyResult>): Promise<void> {
  const { failed } = await result;
  if (failed.length > 0) {
    expect(failed.every(({ error, removed }) => error === failed[0].error && !removed)).toBe(true);
    throw failed[0].error;
  }
}

describe('a model key of another type refuses the operation by name and writes nothing', () => {
  let post: Persisted<WtPost>;
  let log: Persisted<WtLog>;
  let author: Persisted<WtAuthor>;

  beforeAll(async () => {
    await WtNote.create({ text: 'a' });
    post = await WtPost.create({ topic: 'redis', score: 1, slug: 'one' });
    await WtPost.create({ topic: 'valkey', score: 2, slug: 'two' });
    log = await WtLog.create({ level: 'info' });
    author = await WtAuthor.create({ name: 'Ann' });
    await WtBook.create({ title: 'B', authorId: author.id } as never);
  });

  it.each([
    ['all', 'zset'],
    ['seq', 'string'],
  ])('create of a model without checks (%s)', async (name, expected) => {
    await expectRefused(key('WtNote', name), expected, () => WtNote.create({ text: 'b' }));
  });

  it.each([
    ['all', 'zset'],
    ['seq', 'string'],
    ['idx:topic:redis', 'set'],
    ['idx:score', 'zset'],
    ['uniq:slug', 'hash'],
  ])('create with indexes (%s)', async (name, expected) => {
    await expectRefused(key('WtPost', name), expected, () => WtPost.create({ topic: 'redis', score: 3, slug: 'three' }));
  });

  it.each(MULTI_KEYS)('create of a model with indexes and nothing to check (%s)', async (name, expected) => {
    await expectRefused(key('WtMulti', name), expected, () => WtMulti.create({ a: 'x', b: 'y', c: 1, d: 2, e: 'e' }));
  });

  it.each([
    ['create of a model with nothing to check', () => WtMulti.create({ a: 'x\0y\r\nz' }), 'WtMulti', 'idx:a:x\0y\r\nz'],
    ['create through save.lua', () => WtPost.create({ topic: 'x\0y\r\nz', slug: 'bytes' }), 'WtPost', 'idx:topic:x\0y\r\nz'],
  ] as const)('%s names a key whose index value holds NUL, CR and LF bytes exactly', async (_, create, model, name) => {
    await expectRefused(key(model, name), 'set', create);
  });

  it('create under a sequence set back, over the entries of a removed id: the scores they had are put back', async () => {
    // a second object: a draw of 1 taken back deletes the sequence (0 and no sequence are the same to it)
    const first = await WtMulti.create({ a: 'x', b: 'y', c: 3, d: 4, e: 'first' });
    const made = await WtMulti.create({ a: 'x', b: 'y', c: 5, d: 6, e: 'before' });
    // the sequence set back by hand: the next create draws the id of `made`, whose entries are all there
    await redis.raw.set(key('WtMulti', 'seq'), String(Number(made.id) - 1));
    await expectRefused(key('WtMulti', 'lex:e'), 'zset', () => WtMulti.create({ a: 'x', b: 'y', c: 7, d: 8, e: 'after' }));
    expect(await redis.raw.zScore(key('WtMulti', 'idx:c'), made.id)).toBe(5);
    expect(await redis.raw.zScore(key('WtMulti', 'idx:d'), made.id)).toBe(6);
    await redis.raw.set(key('WtMulti', 'seq'), made.id);
    await made.remove();
    await first.remove();
  });

  it.each([
    ['all', 'zset'],
    ['exp', 'zset'],
    ['seq', 'string'],
  ])('create with a time to live (%s)', async (name, expected) => {
    await expectRefused(key('WtLog', name), expected, () => WtLog.create({ level: 'warn' }));
  });

  it('save of a change that moves index entries (the new value`s index key)', async () => {
    await WtPost.create({ topic: 'valkey', score: 9, slug: 'other' });
    const loaded = (await WtPost.find(post.id))!;
    loaded.topic = 'valkey';
    await expectRefused(key('WtPost', 'idx:topic:valkey'), 'set', () => loaded.save());
  });

  it('save of an object whose own key holds a string', async () => {
    const loaded = (await WtNote.findBy())[0];
    loaded.text = 'changed';
    await expectRefused(key('WtNote', `obj:${loaded.id}`), 'hash', () => loaded.save());
  });

  it.each([
    ['WtNote', 'all', 'zset'],
    ['WtPost', 'all', 'zset'],
    ['WtPost', 'idx:score', 'zset'],
    ['WtPost', 'uniq:slug', 'hash'],
    ['WtLog', 'all', 'zset'],
    ['WtLog', 'exp', 'zset'],
    ['WtAuthor', 'all', 'zset'],
  ])('remove of a %s (%s)', async (model, name, expected) => {
    const target = { WtNote, WtPost, WtLog, WtAuthor }[model as 'WtNote']!;
    const [first] = await target.findBy();
    await expectRefused(key(model, name), expected, () => first.remove());
  });

  it.each([
    ['WtPost', () => WtPost.create({ topic: 'own', slug: 'own' }), (id: string) => WtPost.removeMany([id])],
    ['WtLog', () => WtLog.create({ level: 'own' }), (id: string) => WtLog.removeMany([id])],
  ] as const)('remove and removeMany of a %s whose own key holds a string', async (model, make, removeMany) => {
    // an object of its own: the key is put back without its time to live
    const made = await make();
    await expectRefused(key(model, `obj:${made.id}`), 'hash', () => made.remove());
    await expectRefused(key(model, `obj:${made.id}`), 'hash', () => bulkRemoval(removeMany(made.id)));
    await made.remove();
  });

  it.each(MULTI_KEYS.filter(([name]) => name !== 'seq'))(
    'remove and removeMany of a model with two set and three sorted indexes (%s)',
    async (name, expected) => {
      const made = await WtMulti.create({ a: 'x', b: 'y', c: 1, d: 2, e: 'e' });
      await expectRefused(key('WtMulti', name), expected, () => made.remove());
      await expectRefused(key('WtMulti', name), expected, () => bulkRemoval(WtMulti.removeMany([made.id])));
      const { id } = made;
      await made.remove();
      expect(await WtMulti.exists(id)).toBe(false);
    },
  );

  it.each([
    ['idx:tag:t', 'set'],
    ['idx:rank', 'zset'],
    ['all', 'zset'],
  ])('remove and removeMany of an object with a unique value ahead of its index entries (%s)', async (name, expected) => {
    const made = await WtCoded.create({ code: 'c1', tag: 't', rank: 1 });
    await expectRefused(key('WtCoded', name), expected, () => made.remove());
    await expectRefused(key('WtCoded', name), expected, () => bulkRemoval(WtCoded.removeMany([made.id])));
    expect(await redis.raw.hGet(key('WtCoded', 'uniq:code'), 'c1')).toBe(made.id);
    await made.remove();
    expect(await WtCoded.check()).toMatchObject({ ok: true });
  });

  it("remove of a parent whose child's index of the foreign key holds a string", async () => {
    await expectRefused(key('WtBook', `idx:authorId:${author.id}`), 'set', () => author.remove());
  });

  it.each([
    ['WtNote', 'all'],
    ['WtPost', 'all'],
    ['WtLog', 'exp'],
  ])('count of %s (%s)', async (model, name) => {
    const target = { WtNote, WtPost, WtLog }[model as 'WtNote']!;
    await expectRefused(key(model, name), 'zset', () => target.count());
  });

  it('queries (all, an index, exp)', async () => {
    await expectRefused(key('WtPost', 'all'), 'zset', () => WtPost.findBy({ topic: 'redis' }));
    await expectRefused(key('WtPost', 'idx:topic:redis'), 'set', () => WtPost.findBy({ topic: 'redis', score: { gte: 0 } }));
    await expectRefused(key('WtPost', 'idx:score'), 'zset', () => WtPost.findIds({ score: { gte: 0 } }));
    await expectRefused(key('WtLog', 'exp'), 'zset', () => WtLog.findBy({ level: 'info' }));
  });

  it('saveMany and removeMany', async () => {
    await expectRefusedDrawing(key('WtNote', 'all'), 'zset', () => bulk(WtNote.saveMany([{ text: 'x' }, { text: 'y' }])));
    await expectRefused(key('WtNote', 'seq'), 'string', () => bulk(WtNote.saveMany([{ text: 'x' }, { text: 'y' }])));
    await expectRefusedDrawing(key('WtPost', 'all'), 'zset', () =>
      bulk(
        WtPost.saveMany([
          { topic: 'a', slug: 'x1' },
          { topic: 'b', slug: 'x2' },
        ]),
      ),
    );
    await expectRefusedDrawing(key('WtPost', 'idx:topic:b'), 'set', () =>
      bulk(
        WtPost.saveMany([
          { topic: 'a', slug: 'x1' },
          { topic: 'b', slug: 'x2' },
        ]),
      ),
    );
    await expectRefusedDrawing(key('WtLog', 'exp'), 'zset', () => bulk(WtLog.saveMany([{ level: 'a' }, { level: 'b' }])));
    const posts = await WtPost.findBy();
    posts[0].topic = 'moved';
    posts[1].topic = 'moved';
    await expectRefused(key('WtPost', 'idx:topic:moved'), 'set', () => bulk(WtPost.saveMany(posts)));
    const notes = await WtNote.findIds();
    await expectRefused(key('WtNote', 'all'), 'zset', () => bulkRemoval(WtNote.removeMany(notes)));
    await expectRefused(key('WtPost', 'idx:score'), 'zset', () => bulkRemoval(WtPost.removeMany(posts.map((p) => p.id))));
    await expectRefused(key('WtLog', 'exp'), 'zset', () => bulkRemoval(WtLog.removeMany([log.id])));
    await expectRefused(key('WtAuthor', 'all'), 'zset', () => bulkRemoval(WtAuthor.removeMany([author.id])));
  });

  it('increment, expire, sweep', async () => {
    const loaded = (await WtPost.find(post.id))!;
    await expectRefused(key('WtPost', `obj:${post.id}`), 'hash', () => loaded.increment('views'));
    await expectRefused(key('WtLog', 'exp'), 'zset', () => WtLog.sweep());
    const [first] = await WtLog.findBy();
    await expectRefused(key('WtLog', 'exp'), 'zset', () => first.expire(60));
    await expectRefused(key('WtLog', 'exp'), 'zset', () => first.persist());
    await expectRefused(key('WtLog', 'all'), 'zset', () => WtLog.reindex());
  });
});

describe('a many-to-many membership set of another type refuses the change or read by name and writes nothing', () => {
  let reader: Persisted<WtReader>;
  let linked: Persisted<WtShelf>;
  let unlinked: Persisted<WtShelf>;

  beforeAll(async () => {
    reader = await WtReader.create({ name: 'Ann' });
    linked = await WtShelf.create({ label: 'linked' });
    unlinked = await WtShelf.create({ label: 'unlinked' });
    await reader.shelves.add(linked);
    await reader.pinned.add(linked);
  });

  // the set of each side a change of the membership with `shelf` writes: the reader's own, then the shelf's
  const sides = (shelf: () => Persisted<WtShelf>) =>
    [
      ['shelves', 'this side', () => key('WtReader', `rel:shelves:${reader.id}`), shelf],
      ['shelves', 'the other side', () => key('WtShelf', `rel:readers:${shelf().id}`), shelf],
      ['pinned', 'this side', () => key('WtReader', `rel:pinned:${reader.id}`), shelf],
      ['pinned', 'the other side (rev:)', () => key('WtShelf', `rev:WtReader.pinned:${shelf().id}`), shelf],
    ] as const;

  it.each(sides(() => unlinked))('%s.add (%s)', async (relation, _, damaged, shelf) => {
    await expectRefused(damaged(), 'set', () => reader[relation].add(shelf()));
    expect(await reader.shelves.ids()).toEqual([linked.id]);
    expect(await reader.pinned.ids()).toEqual([linked.id]);
  });

  it.each(sides(() => linked))('%s.remove (%s)', async (relation, _, damaged, shelf) => {
    await expectRefused(damaged(), 'set', () => reader[relation].remove(shelf()));
    expect(await reader.shelves.ids()).toEqual([linked.id]);
    expect(await linked.readers.ids()).toEqual([reader.id]);
    expect(await reader.pinned.ids()).toEqual([linked.id]);
  });

  it.each([
    ['ids', (handle: ManyToMany<WtShelf>) => handle.ids()],
    ['list', (handle: ManyToMany<WtShelf>) => handle.list()],
    ['count', (handle: ManyToMany<WtShelf>) => handle.count()],
    ['has', (handle: ManyToMany<WtShelf>) => handle.has(linked)],
  ] as const)('%s', async (_, read) => {
    await expectRefused(key('WtReader', `rel:shelves:${reader.id}`), 'set', () => read(reader.shelves));
    await expectRefused(key('WtReader', `rel:pinned:${reader.id}`), 'set', () => read(reader.pinned));
  });

  it('the other side reads its own set', async () => {
    await expectRefused(key('WtShelf', `rel:readers:${linked.id}`), 'set', () => linked.readers.ids());
    await expectRefused(key('WtShelf', `rel:readers:${linked.id}`), 'set', () => linked.readers.has(reader.id));
  });
});

describe('in a bulk call of many chunks, a refused chunk fails its own items and the others are written', () => {
  /** Every item at `at` or after failed with one WrongTypeError naming `damaged`, nothing written for it. */
  function refusedFrom(failed: ReadonlyArray<{ index?: number; error: Error }>, damaged: string): void {
    expect(failed.length).toBeGreaterThan(0);
    for (const { error } of failed) expect(error).toMatchObject({ key: damaged, expected: 'set', found: 'string' });
  }

  it.each([
    ['a plain create (one MULTI per chunk)', WtTag, (i: number) => ({ topic: i < 700 ? 'a' : 'b' })],
    ['a create through save-many.lua', WtPost, (i: number) => ({ topic: i < 700 ? 'a' : 'b', slug: `many-${i}` })],
  ] as const)('%s', async (_, model, attributes) => {
    const damaged = key(model.name, 'idx:topic:b');
    await redis.raw.set(damaged, 'written by hand');
    try {
      const before = await model.count();
      const result = await (model as typeof WtTag).saveMany(Array.from({ length: 1200 }, (_, i) => attributes(i)) as never, {
        chunkSize: 100,
      });
      expect(result.ok).toBe(false);
      refusedFrom(result.failed, damaged);
      for (const { written } of result.failed) expect(written).toBe(false);
      // the items in a chunk with a 'b' fail with it; every item before the first such chunk is stored
      const firstFailed = result.failed[0].index;
      expect(firstFailed).toBeGreaterThan(500);
      expect(firstFailed).toBeLessThanOrEqual(700);
      expect(result.failed.map(({ index }) => index)).toEqual(Array.from({ length: 1200 - firstFailed }, (_, i) => firstFailed + i));
      expect(result.saved).toHaveLength(firstFailed);
      for (const saved of result.saved) expect(saved.isPersisted()).toBe(true);
      for (const { entity } of result.failed) expect(entity!.isPersisted()).toBe(false);
      expect(await model.count()).toBe(before + firstFailed);
      expect(await redis.raw.get(damaged)).toBe('written by hand');
      expect(await redis.raw.sCard(key(model.name, 'idx:topic:a'))).toBeGreaterThanOrEqual(firstFailed);
    } finally {
      await redis.raw.del(damaged);
    }
    expect(await (model as typeof WtTag).check()).toMatchObject({ ok: true });
  });

  it('an update (update-many.lua per chunk)', async () => {
    const created = await WtTag.saveMany(Array.from({ length: 600 }, () => ({ topic: 'before' })));
    const tags = created.saved;
    const damaged = key('WtTag', 'idx:topic:refused');
    await redis.raw.set(damaged, 'written by hand');
    try {
      tags.forEach((tag, i) => (tag.topic = i < 300 ? 'moved' : 'refused'));
      const result = await WtTag.saveMany(tags, { chunkSize: 100 });
      refusedFrom(result.failed, damaged);
      expect(result.failed.map(({ index }) => index)).toEqual(Array.from({ length: 300 }, (_, i) => 300 + i));
      for (const { written } of result.failed) expect(written).toBe(false);
      expect(await WtTag.count({ topic: 'moved' })).toBe(300);
      expect(await WtTag.count({ topic: 'before' })).toBe(300);
    } finally {
      await redis.raw.del(damaged);
    }
    expect(await WtTag.check()).toMatchObject({ ok: true });
    await WtTag.removeMany(tags.map(({ id }) => id));
  });

  it('removeMany', async () => {
    const created = await WtTag.saveMany(Array.from({ length: 600 }, (_, i) => ({ topic: i < 300 ? 'gone' : 'kept' })));
    const ids = created.saved.map(({ id }) => id);
    const damaged = key('WtTag', 'idx:topic:kept');
    const kept = await redis.raw.sMembers(damaged);
    await redis.raw.del(damaged);
    await redis.raw.set(damaged, 'written by hand');
    try {
      const result = await WtTag.removeMany(ids, { chunkSize: 100 });
      expect(result.removed).toEqual(ids.slice(0, 300));
      refusedFrom(result.failed, damaged);
      expect(result.failed.map(({ id }) => id)).toEqual(ids.slice(300));
      for (const { removed } of result.failed) expect(removed).toBe(false);
      for (const id of ids.slice(300)) expect(await WtTag.exists(id)).toBe(true);
    } finally {
      await redis.raw.del(damaged);
      await redis.raw.sAdd(damaged, kept);
    }
    expect(await WtTag.check()).toMatchObject({ ok: true });
  });
});

describe('check() names them, repair() deletes and rebuilds them', () => {
  it.each([
    ['all', 'zset'],
    ['exp', 'zset'],
    ['seq', 'string'],
  ])('%s', async (name, expected) => {
    for (let i = 0; i < 3; i++) await WtLog.create({ level: `l${i}` });
    const damaged = key('WtLog', name);
    const ids = await redis.raw.zRange(key('WtLog', 'all'), 0, -1);
    const expiring = await redis.raw.zRange(key('WtLog', 'exp'), 0, -1);
    await redis.raw.del(damaged);
    const found = expected === 'string' ? 'hash' : 'string';
    if (found === 'hash') await redis.raw.hSet(damaged, 'written', 'by hand');
    else await redis.raw.set(damaged, 'written by hand');

    const checked = await WtLog.check();
    expect(checked.violations).toEqual([
      expect.objectContaining({
        kind: 'wrongType',
        key: damaged,
        detail: expect.stringContaining(`holds a ${found}, not the ${expected}`),
      }),
    ]);
    const repaired = await WtLog.repair();
    expect(repaired.left).toEqual([]);
    expect(repaired.fixed[0]).toContain(`${damaged}: deleted`);
    expect(await WtLog.check()).toMatchObject({ ok: true });
    expect((await redis.raw.zRange(key('WtLog', 'all'), 0, -1)).sort()).toEqual([...ids].sort());
    expect((await redis.raw.zRange(key('WtLog', 'exp'), 0, -1)).sort()).toEqual([...expiring].sort());
    expect(Number(await redis.raw.get(key('WtLog', 'seq')))).toBeGreaterThanOrEqual(Math.max(...ids.map(Number)));
    expect(await WtLog.count()).toBe(ids.length);
  });
});
