import {
  ArgumentError,
  Attr,
  BaseEntity,
  BelongsTo,
  HasMany,
  Index,
  ManyToMany,
  Model,
  QueryError,
  RelationError,
  WrongTypeError,
} from '../../src';
import type { OrderedManyToMany } from '../../src';
import { expectRelationsConsistent, snapshotKeys } from '../support/relation-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * Collections: replace() and findBy() on many-to-many handles, ordered lists (push, unshift, insertAt, move,
 * remove, list pages), removal of an object from every list and set holding it, and check()/repair() of ordered
 * lists. Every test ends with both sides of every membership agreeing (afterEach).
 */

@Model({ group: 'coll' })
class ClTag extends BaseEntity {
  @Attr() @Index() label!: string;
  @Attr() @Index() weight!: number;
  @ManyToMany(() => ClPost, { inverse: 'tags' }) posts!: ManyToMany<ClPost>;
}

@Model({ group: 'coll' })
class ClPost extends BaseEntity {
  @Attr() title!: string;
  // the ordered side; the tag's side (`posts`) is a set
  @ManyToMany(() => ClTag, { inverse: 'posts', ordered: true }) tags!: OrderedManyToMany<ClTag>;
  // one-sided and unordered: the tag's side is a `rev:` set
  @ManyToMany(() => ClTag) pinned!: ManyToMany<ClTag>;
}

// Both sides ordered: a playlist and the playlists a song is on, in the order it was put on them.
@Model({ group: 'coll' })
class ClSong extends BaseEntity {
  @Attr() name!: string;
  @ManyToMany(() => ClPlaylist, { inverse: 'songs', ordered: true }) playlists!: OrderedManyToMany<ClPlaylist>;
}

@Model({ group: 'coll' })
class ClPlaylist extends BaseEntity {
  @Attr() name!: string;
  @ManyToMany(() => ClSong, { inverse: 'playlists', ordered: true }) songs!: OrderedManyToMany<ClSong>;
}

const MODELS = [ClTag, ClPost, ClSong, ClPlaylist];
const redis = useTestRedis();
const key = (model: string, rest: string) => `${redis.prefix}:{coll}:${model}:${rest}`;

afterEach(async () => {
  await expectRelationsConsistent(MODELS, redis.raw, redis.prefix);
  for (const model of MODELS) expect((await model.check()).violations).toEqual([]);
  await ClTag.removeBy({}, { all: true });
  await ClPost.removeBy({}, { all: true });
  await ClSong.removeBy({}, { all: true });
  await ClPlaylist.removeBy({}, { all: true });
});

async function tags(...labels: string[]) {
  return Promise.all(labels.map((label, i) => ClTag.create({ label, weight: i })));
}
const labels = (items: Array<{ label: string }>) => items.map((item) => item.label);

describe('ordered many-to-many', () => {
  it('push, unshift, insertAt and move keep the order given; remove takes a member out', async () => {
    const post = await ClPost.create({ title: 'p' });
    const [a, b, c, d, e] = await tags('a', 'b', 'c', 'd', 'e');
    await post.tags.push(a, b);
    await post.tags.unshift(c);
    expect(labels(await post.tags.list())).toEqual(['c', 'a', 'b']);
    await post.tags.insertAt(1, d, e.id);
    expect(labels(await post.tags.list())).toEqual(['c', 'd', 'e', 'a', 'b']);
    await post.tags.move(c, 4);
    expect(labels(await post.tags.list())).toEqual(['d', 'e', 'a', 'b', 'c']);
    await post.tags.move(b.id, 0);
    expect(labels(await post.tags.list())).toEqual(['b', 'd', 'e', 'a', 'c']);
    await post.tags.push(d); // already there: moved to the end, never listed twice
    await post.tags.remove(e);
    expect(await post.tags.ids()).toEqual([b.id, a.id, c.id, d.id]);
    expect(await post.tags.count()).toBe(4);
    expect(await post.tags.has(e)).toBe(false);
    expect(await post.tags.has(d)).toBe(true);
    await post.tags.add(e); // add appends what is not there, and leaves what is where it is
    await post.tags.add(b);
    expect(labels(await post.tags.list())).toEqual(['b', 'a', 'c', 'd', 'e']);
    // a page of the list, read from the list alone
    expect(labels(await post.tags.list({ offset: 1, limit: 2 }))).toEqual(['a', 'c']);
    expect(labels(await post.tags.list({ offset: 4, limit: 10 }))).toEqual(['e']);
    expect(await post.tags.list({ limit: 0 })).toEqual([]);
    // the tag's side is a set holding the post
    expect(await a.posts.ids()).toEqual([post.id]);
    expect(await redis.raw.type(key('ClPost', `rel:tags:${post.id}`))).toBe('zset');
    expect(await redis.raw.type(key('ClTag', `rel:posts:${a.id}`))).toBe('set');
  });

  it('an index past the end is the end; many insertions at one spot stay exact (the list is renumbered)', async () => {
    const post = await ClPost.create({ title: 'dense' });
    const [first, last, ...rest] = await tags('first', 'last', ...Array.from({ length: 80 }, (_, i) => `t${i}`));
    await post.tags.push(first);
    await post.tags.insertAt(99, last);
    // each new tag goes right after the first: the gap between two positions is halved every time
    for (const tag of rest) await post.tags.insertAt(1, tag);
    expect(labels(await post.tags.list())).toEqual(['first', ...labels(rest).reverse(), 'last']);
  });

  it('refuses a missing object, an index that is no whole number and a move of a non-member, writing nothing', async () => {
    const post = await ClPost.create({ title: 'p' });
    const [a, b] = await tags('a', 'b');
    await post.tags.push(a);
    const before = await snapshotKeys(redis.raw, redis.prefix);
    await expect(post.tags.push(b, '999')).rejects.toThrow(new RelationError('ClPost.tags.push: the ClTag object "999" does not exist'));
    await expect(post.tags.insertAt(-1, b)).rejects.toThrow(ArgumentError);
    await expect(post.tags.insertAt(1.5, b)).rejects.toThrow(ArgumentError);
    await expect(post.tags.move(b, 0)).rejects.toThrow(new RelationError(`ClPost.tags.move: "${b.id}" is not in the list`));
    await expect(ClPost.build({ title: 'unsaved' }).tags.push(a)).rejects.toThrow(RelationError);
    expect(await snapshotKeys(redis.raw, redis.prefix)).toEqual(before);
  });

  it('both sides ordered: each keeps its own order', async () => {
    const [rock, jazz] = await Promise.all(['rock', 'jazz'].map((name) => ClPlaylist.create({ name })));
    const [s1, s2, s3] = await Promise.all(['s1', 's2', 's3'].map((name) => ClSong.create({ name })));
    await jazz.songs.push(s2, s1);
    await rock.songs.push(s1, s3);
    await s2.playlists.add(rock); // at the end of both lists
    expect(await rock.songs.ids()).toEqual([s1.id, s3.id, s2.id]);
    expect(await s1.playlists.ids()).toEqual([jazz.id, rock.id]);
    await s1.playlists.move(rock, 0);
    expect(await s1.playlists.ids()).toEqual([rock.id, jazz.id]);
    await rock.songs.replace([s3, s2]);
    expect(await s1.playlists.ids()).toEqual([jazz.id]);
    expect(await rock.songs.ids()).toEqual([s3.id, s2.id]);
  });
});

describe('replace', () => {
  it('sets the members to exactly those given, on both sides, in one step', async () => {
    const post = await ClPost.create({ title: 'p' });
    const [a, b, c, d] = await tags('a', 'b', 'c', 'd');
    await post.tags.push(a, b, c);
    await post.pinned.add(a);
    await post.tags.replace([d, b, d.id, a]); // an object given twice counts once
    expect(labels(await post.tags.list())).toEqual(['d', 'b', 'a']);
    expect(await c.posts.count()).toBe(0);
    expect(await d.posts.ids()).toEqual([post.id]);
    await post.pinned.replace([c, b]);
    expect(await post.pinned.ids()).toEqual([b.id, c.id]);
    expect(await redis.raw.sMembers(key('ClTag', `rev:ClPost.pinned:${a.id}`))).toEqual([]);
    await a.posts.replace([]); // from the set side: the post's ordered list loses the tag
    expect(labels(await post.tags.list())).toEqual(['d', 'b']);
    await a.posts.replace([post]); // and gets it back at its end
    expect(labels(await post.tags.list())).toEqual(['d', 'b', 'a']);
  });

  it('refuses a missing object or anything but an array, writing nothing', async () => {
    const post = await ClPost.create({ title: 'p' });
    const [a] = await tags('a');
    await post.tags.push(a);
    const before = await snapshotKeys(redis.raw, redis.prefix);
    await expect(post.tags.replace(['777'])).rejects.toThrow(RelationError);
    await expect(post.pinned.replace([a, '778'])).rejects.toThrow(/ClTag object "778" does not exist/);
    await expect(post.tags.replace(a as never)).rejects.toThrow(ArgumentError);
    expect(await snapshotKeys(redis.raw, redis.prefix)).toEqual(before);
  });
});

describe('findBy on the members', () => {
  it('filters and orders the members inside Redis; an ordered list keeps its order without orderBy', async () => {
    const post = await ClPost.create({ title: 'p' });
    const [a, b, c, d] = await tags('a', 'b', 'c', 'x');
    await ClTag.create({ label: 'a', weight: 9 }); // matches the where, but is no member
    await post.tags.push(c, a, d, b);
    expect(labels(await post.tags.findBy())).toEqual(['c', 'a', 'x', 'b']);
    expect(labels(await post.tags.findBy({ weight: { lt: 3 } }))).toEqual(['c', 'a', 'b']);
    expect(labels(await post.tags.findBy({ label: 'a' }))).toEqual(['a']);
    expect(labels(await post.tags.findBy({}, { orderBy: { weight: 'desc' }, offset: 1, limit: 2 }))).toEqual(['c', 'b']);
    expect(labels(await post.tags.findBy({ OR: [{ label: 'x' }, { label: 'b' }] }, { limit: 1 }))).toEqual(['x']);
    await post.pinned.replace([d, a]);
    expect(labels(await post.pinned.findBy())).toEqual(['a', 'x']); // a set's members in id order
    expect(labels(await post.pinned.findBy({ weight: { gte: 1 } }))).toEqual(['x']);
    expect((await a.posts.findBy()).map((p) => p.title)).toEqual(['p']); // from the set side
    expect(await ClPost.create({ title: 'none' }).then((empty) => empty.tags.findBy())).toEqual([]);
  });

  it('a where no index answers stays a QueryError', async () => {
    const post = await ClPost.create({ title: 'p' });
    const [tag] = await tags('a');
    await tag.posts.add(post);
    await expect(tag.posts.findBy({ title: 'p' })).rejects.toThrow(QueryError);
    // @ts-expect-error label has no ordered index (and a QueryError at run time)
    await expect(post.tags.findBy({}, { orderBy: { label: 'asc' } })).rejects.toThrow(QueryError);
  });
});

describe('removal', () => {
  it('removing an object takes it out of every list and set that holds it, in the same step', async () => {
    const [p1, p2] = await Promise.all(['p1', 'p2'].map((title) => ClPost.create({ title })));
    const [a, b, c] = await tags('a', 'b', 'c');
    await p1.tags.push(a, b, c);
    await p2.tags.push(b, a);
    await p2.pinned.add(b);
    await b.remove();
    expect(await p1.tags.ids()).toEqual([a.id, c.id]);
    expect(await p2.tags.ids()).toEqual([a.id]);
    expect(await p2.pinned.count()).toBe(0);
    await p1.remove();
    expect(await a.posts.ids()).toEqual([p2.id]);
    expect(await redis.raw.exists(key('ClPost', `rel:tags:${p1.id}`))).toBe(0);
    await ClTag.removeMany([a.id, c.id]);
    expect(await p2.tags.count()).toBe(0);
  });
});

describe('check and repair', () => {
  it('know ordered lists: a one-sided member is completed at the end, a list of the wrong type deleted', async () => {
    const post = await ClPost.create({ title: 'p' });
    const [a, b] = await tags('a', 'b');
    await post.tags.push(a);
    await redis.raw.sAdd(key('ClTag', `rel:posts:${b.id}`), post.id); // the tag's side alone
    const found = await ClTag.check();
    expect(found.violations.map((v) => v.kind)).toEqual(['oneSidedMembership']);
    await ClTag.repair();
    expect(await post.tags.ids()).toEqual([a.id, b.id]);

    const list = key('ClPost', `rel:tags:${post.id}`);
    await redis.raw.del(list);
    await redis.raw.sAdd(list, a.id);
    expect((await ClPost.check()).violations.map((v) => v.kind)).toEqual(['wrongType']);
    await expect(post.tags.ids()).rejects.toThrow(WrongTypeError);
    await expect(post.tags.push(b)).rejects.toThrow(WrongTypeError);
    await ClPost.repair(); // deleted
    await ClTag.repair(); // completed from the tags' sides, in the order they are found
    expect((await post.tags.ids()).sort()).toEqual([a.id, b.id]);
    expect(await redis.raw.type(list)).toBe('zset');
  });
});

@Model({ group: 'coll' })
class ClAuthor extends BaseEntity {
  @Attr() name!: string;
  @HasMany(() => ClBook, { inverse: 'author', onDelete: 'nullify' }) books!: HasMany<ClBook>;
}

@Model({ group: 'coll' })
class ClBook extends BaseEntity {
  @BelongsTo(() => ClAuthor) author!: BelongsTo<ClAuthor>;
  authorId?: string;
  @Attr() title!: string;
  @Attr() @Index({ scope: 'authorId' }) year!: number; // an index scoped by the foreign key moves with it
}

describe('has-many replace', () => {
  afterEach(async () => {
    for (const model of [ClAuthor, ClBook]) expect((await model.check()).violations).toEqual([]);
    await ClBook.removeBy({}, { all: true });
    await ClAuthor.removeBy({}, { all: true });
  });

  it('gives the children the owner and clears it from the others, index entries included, in one step', async () => {
    const [ann, bob] = await Promise.all(['ann', 'bob'].map((name) => ClAuthor.create({ name })));
    const [b1, b2, b3] = await Promise.all([1, 2, 3].map((n) => ann.books.create({ title: `b${n}`, year: 2000 + n })));
    const b4 = await bob.books.create({ title: 'b4', year: 2004 });
    const loose = await ClBook.create({ title: 'b5', year: 2005 });
    await ann.books.replace([b3, b4.id, loose, b3]);
    expect(await ann.books.findIds({}, { orderBy: { year: 'asc' } })).toEqual([b3.id, b4.id, loose.id]);
    expect(await bob.books.count()).toBe(0);
    expect((await ClBook.findOrFail(b1.id)).authorId).toBeUndefined();
    expect(await ClBook.findIds({ authorId: ann.id, year: { lt: 2004 } })).toEqual([b3.id]);
    expect((await ClBook.findOrFail(b2.id)).author.id).toBeUndefined();
    await ann.books.replace([]);
    expect(await ann.books.count()).toBe(0);
  });

  it('refuses an object that is not live, or anything but an array, writing nothing', async () => {
    const ann = await ClAuthor.create({ name: 'ann' });
    const book = await ann.books.create({ title: 'b', year: 1 });
    const before = await snapshotKeys(redis.raw, redis.prefix);
    await expect(ann.books.replace([book, '999'])).rejects.toThrow(
      new RelationError('ClAuthor.books.replace: the ClBook object "999" does not exist'),
    );
    await expect(ann.books.replace(book as never)).rejects.toThrow(ArgumentError);
    await expect(ClAuthor.build({ name: 'x' }).books.replace([book])).rejects.toThrow(RelationError);
    expect(await snapshotKeys(redis.raw, redis.prefix)).toEqual(before);
  });
});

describe('in tenants', () => {
  it('lists, replace and findBy stay inside the tenant', async () => {
    const [Post, Tag] = [ClPost.scope('acme'), ClTag.scope('acme')];
    const post = await Post.create({ title: 'p' });
    const [a, b] = await Promise.all(['a', 'b'].map((label, weight) => Tag.create({ label, weight })));
    const outside = await ClTag.create({ label: 'a', weight: 0 }); // the same id as `a`, outside the tenant
    await post.tags.push(b, a);
    expect(labels(await post.tags.findBy({ label: 'a' }))).toEqual(['a']);
    expect(labels(await post.tags.list())).toEqual(['b', 'a']);
    await expect(post.tags.push(outside)).rejects.toThrow(ArgumentError); // an object of another scope
    await post.tags.replace([a.id]);
    expect(await b.posts.count()).toBe(0);
    expect(await outside.posts.count()).toBe(0);
    expect(await redis.raw.type(`${redis.prefix}:{acme/coll}:ClPost:rel:tags:${post.id}`)).toBe('zset');
    await expectRelationsConsistent([Post, Tag], redis.raw, redis.prefix);
    for (const model of [Post, Tag]) expect((await model.check()).violations).toEqual([]);
    await post.remove();
    expect(await a.posts.count()).toBe(0);
    await Tag.removeBy({}, { all: true });
  });
});
