import { ArgumentError, Attr, BaseEntity, BelongsTo, HasMany, Index, Model, QueryError } from '../../src';
import { useCountingConnection } from '../core/support/counting-client';
import { useTestRedis } from '../support/test-redis';

/**
 * `include`: the parents of a page of objects are read in exactly one more round trip per relation, whatever
 * the page's size; a parent that has vanished (expired) is null; only @BelongsTo properties can be included.
 */

@Model({ group: 'inc', expirable: true })
class IncAuthor extends BaseEntity {
  @Attr() name!: string;
  @HasMany(() => IncBook, { inverse: 'author', onDelete: 'cascade' }) books!: HasMany<IncBook>;
}

@Model({ group: 'inc' })
class IncShelf extends BaseEntity {
  @Attr() label!: string;
  @HasMany(() => IncBook, { inverse: 'shelf', onDelete: 'nullify' }) books!: HasMany<IncBook>;
}

@Model({ group: 'inc' })
class IncBook extends BaseEntity {
  @BelongsTo(() => IncAuthor) author!: BelongsTo<IncAuthor>;
  @BelongsTo(() => IncShelf) shelf!: BelongsTo<IncShelf>;
  @Attr() @Index() genre!: string;
  @Attr() @Index() pages!: number;
}

const redis = useTestRedis();
const counting = useCountingConnection(redis);
const authors: IncAuthor[] = [];
const shelves: IncShelf[] = [];

beforeAll(async () => {
  for (const name of ['ann', 'bea', 'cat']) authors.push(await IncAuthor.create({ name }));
  for (const label of ['top', 'bottom']) shelves.push(await IncShelf.create({ label }));
  for (let i = 0; i < 30; i++) {
    const book = IncBook.build({ genre: i % 2 === 0 ? 'even' : 'odd', pages: i });
    book.author.set(authors[i % 3]);
    if (i % 5 !== 0) book.shelf.set(shelves[i % 2]);
    await book.save();
  }
  await IncBook.findBy({ genre: 'odd' }, { include: ['author'], limit: 1 }); // scripts cached from here on
});

beforeEach(() => counting.reset());

describe('include', () => {
  it('loads the parents of a whole page in one more round trip', async () => {
    const plain = await IncBook.findBy({ genre: 'even' });
    expect(counting.calls).toHaveLength(1);
    expect(plain[0].author.value).toBeUndefined(); // not loaded
    counting.reset();

    const books = await IncBook.findBy({ genre: 'even' }, { include: ['author'] });
    expect(counting.calls).toHaveLength(2);
    expect(books).toHaveLength(15);
    expect(books.map((b) => b.author.value?.name)).toEqual(books.map((b) => authors[b.pages % 3].name));
    expect(books.every((b) => b.author.value instanceof IncAuthor)).toBe(true);
    counting.reset();
    await Promise.all(books.map((b) => b.author.load())); // already loaded: no round trip
    expect(counting.calls).toHaveLength(0);
  });

  it('costs one round trip per included relation; empty pointers load nothing', async () => {
    const books = await IncBook.findBy({ pages: { lt: 10 } }, { include: ['author', 'shelf'], orderBy: { pages: 'asc' } });
    expect(counting.calls).toHaveLength(3);
    expect(books.map((b) => b.shelf.value?.label ?? null)).toEqual(
      books.map((b) => (b.pages % 5 === 0 ? null : shelves[b.pages % 2].label)),
    );
    counting.reset();
    expect(await books[0].shelf.load()).toBeNull(); // book 0 has no shelf: nothing to read
    expect(counting.calls).toHaveLength(0);
  });

  it('works through findOneBy and a has-many handle', async () => {
    const one = await IncBook.findOneBy({ genre: 'odd' }, { include: ['shelf'], orderBy: { pages: 'desc' } });
    expect(counting.calls).toHaveLength(2);
    expect([one?.pages, one?.shelf.value?.label]).toEqual([29, 'bottom']);
    counting.reset();
    const byBea = await authors[1].books.findBy({ genre: 'odd' }, { include: ['author'], limit: 3 });
    expect(counting.calls).toHaveLength(2);
    expect(byBea.map((b) => b.author.value)).toEqual(
      [authors[1], authors[1], authors[1]].map((a) => expect.objectContaining({ name: a.name })),
    );
  });

  it('gives null for a parent that has vanished without a remove (expired)', async () => {
    const ghost = await IncAuthor.create({ name: 'ghost' });
    const book = await ghost.books.create({ genre: 'haunted', pages: 1 });
    await ghost.expire(0.05);
    await new Promise((resolve) => setTimeout(resolve, 120));
    counting.reset();
    const [found] = await IncBook.findBy({ genre: 'haunted' }, { include: ['author'] });
    expect(counting.calls).toHaveLength(2);
    expect(found.author.id).toBe(ghost.id); // expiry applies no onDelete rule: the pointer stays
    expect(found.author.value).toBeNull();
    expect(await found.author.load()).toBeNull();
    await book.remove();
  });

  it('throws QueryError for anything but a @BelongsTo property', async () => {
    await expect(IncAuthor.findBy({}, { include: ['books' as never] })).rejects.toThrow(QueryError);
    await expect(IncBook.findBy({}, { include: ['genre' as never] })).rejects.toThrow(/include takes @BelongsTo relations; "genre"/);
    await expect(IncBook.findBy({}, { include: ['nothing' as never] })).rejects.toThrow(QueryError);
  });

  it.each([
    ['a Set', new Set(['author']), /include takes an array of @BelongsTo relation names, got a Set/],
    ['a string', 'author', /include takes an array of @BelongsTo relation names, got "author"/],
    ['null', null, /got null/],
    ['an array-like', { 0: 'author', length: 1 }, /got an object/],
    ['a number inside', ['author', 7], /include takes @BelongsTo relations; 7 is not one/],
  ])('refuses %s before the query runs: nothing is sent', async (_label, include, message) => {
    await expect(IncBook.findBy({}, { include: include as never })).rejects.toThrow(message);
    expect(counting.calls).toHaveLength(0);
  });
});

describe('query options a call does not take', () => {
  it.each([
    [
      'findBy',
      () => IncBook.findBy({}, { order: { pages: 'desc' } } as never),
      /^findBy: unknown option "order" \(findBy takes orderBy, offset, limit, include\)$/,
    ],
    ['findIds', () => IncBook.findIds({}, { skip: 10 } as never), /^findIds: unknown option "skip"/],
    [
      'findIds with include',
      () => IncBook.findIds({}, { include: ['author'] } as never),
      /^findIds: unknown option "include" \(findIds takes orderBy, offset, limit\)$/,
    ],
    ['findOneBy with a limit', () => IncBook.findOneBy({}, { limit: 5 } as never), /^findOneBy: unknown option "limit"/],
    [
      'iterate with a limit',
      () => IncBook.iterate({}, { limit: 2 } as never).next(),
      /^iterate: unknown option "limit" \(iterate takes batchSize\)$/,
    ],
  ])('%s: an ArgumentError, and nothing is sent', async (_label, call, message) => {
    const error = await call().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as Error).message).toMatch(message);
    expect(counting.calls).toHaveLength(0);
  });

  it('an option set to undefined is absent', async () => {
    expect(await IncBook.findIds({ genre: 'odd' }, { limit: 2, order: undefined } as never)).toHaveLength(2);
  });
});
