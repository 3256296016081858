import {
  ArgumentError,
  Attr,
  BaseEntity,
  BelongsTo,
  FindManyOptions,
  FindOptions,
  HasMany,
  HasManyOptions,
  Index,
  IncludableName,
  ManyToMany,
  Model,
  OrderedManyToMany,
  Persisted,
  QueryError,
  SaveOptions,
  Where,
} from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * What the compiler accepts and refuses around relations. ts-jest type-checks this file: every
 * `// @ts-expect-error` line must fail to compile (an unused one fails the run), and every other line must
 * compile. Relation properties are handles, not attributes; `include` takes @BelongsTo properties only; the
 * handles' methods are typed by the related model.
 */

@Model({ group: 'typed' })
class TyUser extends BaseEntity {
  @Attr() name!: string;
  @HasMany(() => TyPost, { inverse: 'author', onDelete: 'cascade' }) posts!: HasMany<TyPost>;
  @ManyToMany(() => TyTag) tags!: ManyToMany<TyTag>;
}

@Model({ group: 'typed' })
class TyPost extends BaseEntity {
  @BelongsTo(() => TyUser) author!: BelongsTo<TyUser>;
  authorId?: string;
  @Attr() title!: string;
  @Attr() @Index({ scope: 'authorId' }) score!: number;
}

@Model({ group: 'typed' })
class TyTag extends BaseEntity {
  @Attr() label!: string;
}

type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | undefined {
  return undefined;
}

useTestRedis();

describe('relation properties are not attributes', () => {
  it('create and build refuse them; the foreign key attribute is accepted', async () => {
    const user = await TyUser.create({ name: 'ann' });
    // @ts-expect-error a relation handle is not an attribute
    await expect(TyPost.create({ title: 't', score: 1, author: user })).rejects.toThrow(/no attribute author/);
    // @ts-expect-error nor is a has-many
    expect(() => TyUser.build({ posts: [] })).toThrow(/no attribute posts/);
    // @ts-expect-error nor a many-to-many
    expect(() => TyUser.build({ tags: [] })).toThrow(/no attribute tags/);
    const post = await TyPost.create({ title: 't', score: 1, authorId: user.id });
    expect(post.author.id).toBe(user.id);
    // @ts-expect-error where clauses cannot name a relation either
    const where: Where<TyPost> = { author: user.id };
    expect(where).toBeDefined();
  });
});

describe('include', () => {
  it('accepts @BelongsTo properties only', async () => {
    assertType<Equal<IncludableName<TyPost>, 'author'>>();
    assertType<Equal<IncludableName<TyUser>, never>>();
    const ok: FindOptions<TyPost> = { include: ['author'] };
    expect((await TyPost.findBy({}, ok))[0].author.value?.name).toBe('ann');
    // @ts-expect-error a has-many cannot be included
    await expect(TyUser.findBy({}, { include: ['posts'] })).rejects.toThrow(/include takes @BelongsTo/);
    // @ts-expect-error nor can an attribute (even the foreign key)
    await expect(TyPost.findBy({}, { include: ['authorId'] })).rejects.toThrow(/include takes @BelongsTo/);
  });
});

describe('handle methods are typed by the related model', () => {
  it('has-many queries, creates and results are the child model', async () => {
    const user = await TyUser.findOrFail('1');
    const posts = await user.posts.findBy({ score: { gte: 0 } }, { orderBy: { score: 'desc' }, include: ['author'] });
    assertType<Equal<typeof posts, Array<TyPost & { readonly id: string }>>>();
    const titles: string[] = posts.map((p) => p.title);
    expect(titles).toEqual(['t']);
    // @ts-expect-error name is an attribute of TyUser, not of TyPost
    await user.posts.findBy({ name: 'ann' }).catch(() => undefined);
    // @ts-expect-error score is a number
    await user.posts.count({ score: 'high' }).catch(() => undefined);
    // @ts-expect-error orderBy on a plain string is refused
    await user.posts.findIds({}, { orderBy: { title: 'asc' } }).catch(() => undefined);
    const created = await user.posts.create({ title: 'second', score: 2 });
    assertType<Equal<typeof created, TyPost & { readonly id: string }>>();
    expect(created.title).toBe('second');
    // @ts-expect-error create takes the child's attributes
    await user.posts.create({ label: 'x' }).catch(() => undefined);
    expect(await user.posts.count()).toBe(2);
  });

  it("has-many methods take the options of the model's methods, typed the same", async () => {
    const user = await TyUser.findOrFail('1');
    const options: SaveOptions = { validate: false };
    const third = await user.posts.create({ title: 'third', score: 3 }, options);
    expect(third.authorId).toBe(user.id);
    // @ts-expect-error a misspelt option (waitReplicas), as for TyPost.create (and ArgumentError at run time)
    await expect(user.posts.create({ title: 'x', score: 0 }, { waitReplica: 3 })).rejects.toThrow(ArgumentError);
    // @ts-expect-error validate is true or false
    await expect(user.posts.create({ title: 'x', score: 0 }, { validate: 'false' })).rejects.toThrow(ArgumentError);
    // @ts-expect-error count takes no options, as TyPost.count (and ArgumentError at run time)
    await expect(user.posts.count({}, { limit: 1 })).rejects.toThrow(ArgumentError);
    // @ts-expect-error as TyPost.count
    await expect(TyPost.count({}, { limit: 1 })).rejects.toThrow(ArgumentError);
    expect(await user.posts.count({})).toBe(3);
    await third.remove();
  });

  it('many-to-many ids and count take no arguments; list takes a page and the options of findMany', async () => {
    const user = await TyUser.findOrFail('1');
    const chunked: FindManyOptions = { chunkSize: 1 };
    expect(await user.tags.list(chunked)).toEqual([]);
    expect(await user.tags.list({ offset: 0, limit: 1 })).toEqual([]);
    // @ts-expect-error list takes a page and findMany's options (and ArgumentError at run time)
    await expect(user.tags.list({ order: 'asc' })).rejects.toThrow(ArgumentError);
    // @ts-expect-error count has no where (and ArgumentError at run time)
    await expect(user.tags.count({ label: 'x' })).rejects.toThrow(ArgumentError);
    // @ts-expect-error nor options (and ArgumentError at run time)
    await expect(user.tags.ids({ limit: 1 })).rejects.toThrow(ArgumentError);
  });

  it('belongs-to and many-to-many take the related model, an id, or null where allowed', async () => {
    const post = await TyPost.findOrFail('1');
    const author = await post.author.load();
    assertType<Equal<typeof author, (TyUser & { readonly id: string }) | null>>();
    assertType<Equal<typeof post.author.value, (TyUser & { readonly id: string }) | null | undefined>>();
    const loadedId: string | undefined = author?.id;
    expect(loadedId).toBe(post.author.id);
    const tag = await TyTag.create({ label: 'x' });
    // @ts-expect-error a post's author is a TyUser, not a TyTag (and at run time an ArgumentError)
    expect(() => post.author.set(tag)).toThrow(ArgumentError);
    post.author.set(author);
    // @ts-expect-error the parent an include reads is given through no public method
    expect(() => post.author.preload(author)).toThrow(TypeError);
    expect(post.author.value).toBe(author);
    post.author.set('1');
    post.author.set(null);
    const user = author!;
    await user.tags.add(tag);
    // @ts-expect-error tags are TyTag objects or ids
    await user.tags.add(post).catch(() => undefined);
    const list = await user.tags.list();
    assertType<Equal<typeof list, Array<TyTag & { readonly id: string }>>>();
    const has: boolean = await user.tags.has(tag.id);
    const ids: string[] = await user.tags.ids();
    expect([has, ids, list.map((t) => t.label)]).toEqual([true, [tag.id], ['x']]);
  });
});

describe("a has-many's inverse", () => {
  it("names the related model's @BelongsTo of this model (and SchemaError at runtime otherwise)", () => {
    const inverse: HasManyOptions = { inverse: 'owner' };
    @Model({ group: 'typed' })
    class TyShelf extends BaseEntity {
      @HasMany(() => TyBook, { inverse: 'shelf' }) books!: HasMany<TyBook>;
      // options built apart: the inverse is a string the types cannot check, run time does
      @HasMany(() => TyBook, inverse) owned!: HasMany<TyBook>;
    }
    @Model({ group: 'typed' })
    class TyBook extends BaseEntity {
      @BelongsTo(() => TyShelf) shelf!: BelongsTo<TyShelf>;
      @Attr() title?: string;
    }
    expect(() => TyShelf.build()).toThrow(/TyShelf.owned: inverse "owner" must be a @BelongsTo/);
    @Model({ group: 'typed' })
    class TyRack extends BaseEntity {
      // @ts-expect-error TyBook.shelf points to TyShelf, not to TyRack
      @HasMany(() => TyBook, { inverse: 'shelf' }) books!: HasMany<TyBook>;
    }
    expect(() => TyRack.build()).toThrow(/TyRack.books: inverse "shelf" must be a @BelongsTo\(\(\) => TyRack\)/);
  });
});

describe('a relation decorator is tied to the declared handle', () => {
  it("the property is declared as the handle of the decorator's target model", () => {
    class TyMixed extends BaseEntity {
      @BelongsTo(() => TyUser) author?: BelongsTo<TyUser>;
      @BelongsTo(() => TyMixed) parent!: BelongsTo<TyMixed>;
      @HasMany(() => TyMixed, { inverse: 'parent' }) children!: HasMany<TyMixed>;
      @ManyToMany(() => TyTag) tags!: ManyToMany<TyTag>;
      // @ts-expect-error the target (TyTag) is not the declared handle's model (TyUser)
      @BelongsTo(() => TyTag) editor!: BelongsTo<TyUser>;
      // @ts-expect-error nor for a has-many
      @HasMany(() => TyTag, { inverse: 'author' }) drafts!: HasMany<TyPost>;
      // @ts-expect-error nor for a many-to-many
      @ManyToMany(() => TyUser) labels!: ManyToMany<TyTag>;
      // @ts-expect-error the inverse names no property of TyPost
      @HasMany(() => TyPost, { inverse: 'writer' }) unknownInverse!: HasMany<TyPost>;
      // @ts-expect-error nor one that is not a @BelongsTo
      @HasMany(() => TyPost, { inverse: 'title' }) attributeInverse!: HasMany<TyPost>;
      // @ts-expect-error nor a @BelongsTo of another model than this one (TyPost.author points to TyUser)
      @HasMany(() => TyPost, { inverse: 'author' }) notOurs!: HasMany<TyPost>;
      // @ts-expect-error a @BelongsTo is declared BelongsTo<T>, not HasMany<T>
      @BelongsTo(() => TyPost) reply!: HasMany<TyPost>;
      // @ts-expect-error nor as a plain attribute
      @BelongsTo(() => TyUser) owner!: string;
    }
    expect(TyMixed).toBeDefined();
    expect(() => {
      class TyStatic extends BaseEntity {
        // @ts-expect-error relations go on instance properties (and at run time a SchemaError)
        @ManyToMany(() => TyTag) static shared: ManyToMany<TyTag>;
      }
      return TyStatic;
    }).toThrow(/@ManyToMany goes on an instance property/);
  });
});

describe('collections', () => {
  @Model({ group: 'typed' })
  class TyList extends BaseEntity {
    @Attr() name!: string;
    @ManyToMany(() => TyTag, { ordered: true }) tags!: OrderedManyToMany<TyTag>;
  }

  it('an ordered relation is declared OrderedManyToMany, and only it places members', () => {
    class TyListMix extends BaseEntity {
      @ManyToMany(() => TyTag, { ordered: false }) plain!: ManyToMany<TyTag>;
      // @ts-expect-error an ordered relation's property is an OrderedManyToMany
      @ManyToMany(() => TyTag, { ordered: true }) notDeclaredOrdered!: ManyToMany<TyTag>;
      // @ts-expect-error and an OrderedManyToMany needs { ordered: true }
      @ManyToMany(() => TyTag) notOrdered!: OrderedManyToMany<TyTag>;
    }
    expect(TyListMix).toBeDefined();
    const user = TyUser.build({ name: 'x' });
    // @ts-expect-error a set has no order to push to
    expect(user.tags.push).toBeUndefined();
    // @ts-expect-error nor to move in
    expect(user.tags.move).toBeUndefined();
  });

  it("replace, push, insertAt and move take the target model's objects or ids; findBy's where is the target's", async () => {
    const list = await TyList.create({ name: 'l' });
    const user = await TyUser.create({ name: 'u' });
    const tag = await TyTag.create({ label: 'a' });
    await list.tags.push(tag, tag.id);
    await list.tags.insertAt(0, tag);
    await list.tags.move(tag, 0);
    await user.tags.replace([tag, '1']);
    // @ts-expect-error replace takes an array
    await expect(user.tags.replace(tag)).rejects.toThrow(ArgumentError);
    // @ts-expect-error of the target model's objects (and ArgumentError at run time)
    await expect(list.tags.replace([user])).rejects.toThrow(ArgumentError);
    // @ts-expect-error push takes the target's objects too
    await expect(list.tags.push(user)).rejects.toThrow(ArgumentError);
    // @ts-expect-error insertAt takes the index first
    await expect(list.tags.insertAt(tag, 0)).rejects.toThrow(ArgumentError);
    const found = await list.tags.findBy({}, { limit: 1, offset: 0 });
    assertType<Equal<typeof found, Array<Persisted<TyTag>>>>();
    expect(found.map((t) => t.label)).toEqual(['a']);
    // @ts-expect-error the where names the target model's attributes
    await expect(user.tags.findBy({ labl: 'u' })).rejects.toThrow(QueryError);
    // @ts-expect-error and its values are the target's attributes' types
    await expect(user.tags.findBy({ label: 1 })).rejects.toThrow(QueryError);
    // @ts-expect-error range operators apply to numbers, Dates and sortable strings
    await expect(list.tags.findBy({ label: { gt: 'a' } })).rejects.toThrow(QueryError);
    await Promise.all([list.remove(), user.remove(), tag.remove()]);
  });
});
