import {
  ArgumentError,
  Attr,
  AttributeInput,
  AttributeName,
  BaseEntity,
  Codec,
  Counter,
  DynamicAttrs,
  EntityClass,
  Model,
  Persisted,
  SchemaError,
  Unique,
  Version,
} from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * What the compiler accepts and refuses. ts-jest type-checks this file: every `// @ts-expect-error` line
 * must fail to compile (an unused one fails the run), and every other line must compile. Each test also
 * runs, and asserts what happens at runtime.
 */

@Model()
class TypedPost extends BaseEntity {
  @Attr() author!: string;
  @Attr() views = 0;
  @Attr() published?: Date;
  @Attr({ type: 'json' }) tags: string[] = [];

  summary(): string {
    return `${this.author} (${this.views})`;
  }
}

@Model()
class TypedUser extends BaseEntity {
  @Attr() email!: string;
  @Attr() admin = false;
}

/** Shares the attribute `author` with TypedPost, and nothing else. */
@Model()
class TypedByline extends BaseEntity {
  @Attr() author?: string;
}

/** Compiles only when X and Y are the same type. */
type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | undefined {
  return undefined;
}

useTestRedis();

describe('the attributes a model accepts', () => {
  it('AttributeName is the attributes only: no id, no methods', () => {
    assertType<Equal<AttributeName<TypedPost>, 'author' | 'views' | 'published' | 'tags'>>();
    const names: Array<AttributeName<TypedPost>> = ['author', 'views', 'published', 'tags'];
    // @ts-expect-error the id is not an attribute
    names.push('id');
    // @ts-expect-error methods are not attributes
    names.push('summary');
    expect(names).toHaveLength(6);
  });

  it('create takes typed attributes, any subset, null meaning absent', async () => {
    const input: AttributeInput<TypedPost> = { author: 'ann', published: null };
    const post = await TypedPost.create(input);
    expect(post.published).toBeUndefined();
    expect(post.author).toBe('ann');
  });

  it('refuses a misspelt attribute at compile time (and ValidationError at runtime)', async () => {
    // @ts-expect-error `autor` is not an attribute of TypedPost
    await expect(TypedPost.create({ autor: 'x' })).rejects.toThrow('autor');
  });

  it('refuses a value of the wrong type (and ValidationError at runtime)', async () => {
    // @ts-expect-error views is a number
    await expect(TypedPost.create({ views: 'x' })).rejects.toThrow('views');
    // @ts-expect-error published is a Date, not a string
    await expect(TypedPost.create({ published: '2024-01-01' })).rejects.toThrow('published');
    // @ts-expect-error tags is string[]
    await expect(TypedPost.create({ tags: [1, 2] })).resolves.toBeInstanceOf(TypedPost); // json takes any JSON
  });

  it('refuses id and method names in create and build', async () => {
    // compiles (a model with idStrategy 'given' takes it), refused when the model draws its ids
    await expect(TypedPost.create({ id: '7' })).rejects.toThrow("idStrategy: 'given'");
    // @ts-expect-error an id is a string
    expect(() => TypedPost.build({ id: 7 })).toThrow('id');
    // @ts-expect-error methods are not attributes
    expect(() => TypedPost.build({ summary: 'x' })).toThrow('summary');
  });

  it('refuses attributes of another model', async () => {
    // @ts-expect-error email belongs to TypedUser
    await expect(TypedPost.create({ email: 'a@b.c' })).rejects.toThrow('email');
  });
});

describe('an entity is not attributes', () => {
  it('create and build refuse an entity of another model that shares an attribute (and ArgumentError at runtime)', async () => {
    const byline = await TypedByline.create({ author: 'ann' });
    const before = await TypedPost.count();
    // @ts-expect-error an entity is not an attribute object, even where its properties fit
    await expect(TypedPost.create(byline)).rejects.toThrow(ArgumentError);
    // @ts-expect-error likewise for build
    expect(() => TypedPost.build(byline)).toThrow(/not an entity; got a TypedByline/);
    // @ts-expect-error nor is it an item of saveMany (neither a TypedPost nor attributes)
    const result = await TypedPost.saveMany([byline]);
    expect(result.failed[0].error).toBeInstanceOf(ArgumentError);
    expect(await TypedPost.count()).toBe(before);
  });

  it("nor an entity of the model's own, while a Partial of the model still passes", async () => {
    const post = await TypedPost.create({ author: 'bo' });
    // @ts-expect-error an entity of the model itself: save() it, or copy the attributes wanted
    await expect(TypedPost.create(post)).rejects.toThrow(/not an entity; got a TypedPost/);
    const partial: Partial<TypedPost> = { author: 'cy', views: 2 };
    const copied = await TypedPost.create(partial);
    const fromAttributes = await TypedPost.saveMany([{ author: post.author }, partial]);
    expect([copied.author, copied.views, fromAttributes.saved.length]).toEqual(['cy', 2, 2]);
  });
});

describe('statics are called on a model class, not on BaseEntity', () => {
  it('BaseEntity itself has no model: its statics do not compile (and SchemaError at runtime)', async () => {
    // @ts-expect-error BaseEntity is not a model
    await expect(BaseEntity.check()).rejects.toThrow(SchemaError);
    // @ts-expect-error BaseEntity is not a model
    await expect(BaseEntity.repair()).rejects.toThrow(/BaseEntity is not a model/);
    // @ts-expect-error BaseEntity is not a model
    await expect(BaseEntity.reindex()).rejects.toThrow(/BaseEntity is not a model/);
    // @ts-expect-error BaseEntity is not a model
    await expect(BaseEntity.schemaStatus()).rejects.toThrow(/BaseEntity is not a model/);
    // @ts-expect-error BaseEntity is not a model, so it has no tenants either
    expect(() => BaseEntity.scope('acme')).toThrow(/BaseEntity is not a model/);
    // @ts-expect-error as for find, count and the others
    await expect(BaseEntity.count()).rejects.toThrow(/BaseEntity is not a model/);
  });

  it('a model class, a scoped one and a list of models compile', async () => {
    const inTenant = TypedPost.scope('acme');
    const status = await inTenant.schemaStatus();
    const models: Array<EntityClass<BaseEntity> & typeof BaseEntity> = [TypedPost, TypedUser];
    const checked = await Promise.all(models.map((model) => model.check()));
    expect(status.needsReindex).toBe(false);
    expect(checked.map((result) => result.ok)).toEqual([true, true]);
    expect((await TypedUser.reindex()).dropped).toEqual([]);
  });
});

describe('what reads resolve to', () => {
  it('find resolves to the model class or null, with the id set', async () => {
    const created = await TypedPost.create({ author: 'bob', views: 3 });
    const found = await TypedPost.find(created.id);
    assertType<Equal<typeof found, Persisted<TypedPost> | null>>();
    const asPost: TypedPost | null = found;
    expect(asPost).toBeInstanceOf(TypedPost);

    if (found) {
      const id: string = found.id;
      const views: number = found.views;
      const author: string = found.author;
      const tags: string[] = found.tags;
      const published: Date | undefined = found.published;
      expect([id, views, author, tags, published]).toEqual([created.id, 3, 'bob', [], undefined]);
      expect(found.summary()).toBe('bob (3)');
    }
  });

  it('a possibly-null result cannot be used without a check', async () => {
    const p: TypedPost | null = await TypedPost.find('999');
    // @ts-expect-error p may be null
    expect(() => p.views).toThrow(TypeError);
    expect(p?.views).toBeUndefined();
  });

  it('findMany takes a numeric chunkSize and nothing else beside the ids', async () => {
    const post = await TypedPost.create({ author: 'di' });
    const found = await TypedPost.findMany([post.id], { chunkSize: 100 });
    // @ts-expect-error chunkSize is a number
    await expect(TypedPost.findMany([post.id], { chunkSize: '100' })).rejects.toThrow(/chunkSize/);
    // @ts-expect-error findMany has no limit option (nor does it take one at run time)
    await expect(TypedPost.findMany([post.id], { limit: 1 })).rejects.toThrow(/unknown option "limit"/);
    expect(found[0]?.author).toBe('di');
  });

  it('attributes keep their types', async () => {
    const post = await TypedPost.create({ author: 'cy' });
    // @ts-expect-error views is a number
    const views: string = post.views;
    // @ts-expect-error author is a string
    post.author = 42;
    expect(typeof views).toBe('number');
    expect(post.author).toBe(42);
  });

  it('the result of TypedPost.find is not a TypedUser', async () => {
    const created = await TypedPost.create({ author: 'dee' });
    // @ts-expect-error a TypedPost has no email or admin
    const user: TypedUser | null = await TypedPost.find(created.id);
    expect(user).toBeInstanceOf(TypedPost);
    expect(user).not.toBeInstanceOf(TypedUser);
  });

  it('findOrFail resolves to the model, never null; findMany to an array of model or null', async () => {
    const created = await TypedUser.create({ email: 'e@example.com' });
    const user = await TypedUser.findOrFail(created.id);
    assertType<Equal<typeof user, Persisted<TypedUser>>>();
    const many = await TypedUser.findMany([created.id, '999']);
    assertType<Equal<typeof many, Array<Persisted<TypedUser> | null>>>();
    const admin: boolean = user.admin;
    expect(admin).toBe(false);
    expect(many.map((item) => item?.email ?? null)).toEqual(['e@example.com', null]);
  });

  it('create and save resolve to the persisted model, whose id is a string', async () => {
    const post = await TypedPost.create({ author: 'fay' });
    const id: string = post.id;
    const built = TypedPost.build({ author: 'gus' });
    // @ts-expect-error an unsaved entity's id may be undefined
    const unsavedId: string = built.id;
    const saved = await built.save();
    const savedId: string = saved.id;
    expect(id).toMatch(/^\d+$/);
    expect(unsavedId).toBeUndefined();
    expect(savedId).toBe(built.id);
  });

  it('the id is read-only', async () => {
    const post = await TypedPost.create({ author: 'hal' });
    // @ts-expect-error id has no setter
    expect(() => (post.id = '5')).toThrow(TypeError);
  });

  it('count and exists resolve to a number and a boolean', async () => {
    const count: number = await TypedUser.count();
    const exists: boolean = await TypedUser.exists('1');
    expect(count).toBeGreaterThan(0);
    expect(exists).toBe(true);
  });
});

describe('withLock', () => {
  it('resolves to what work returns, awaited, whether work is synchronous or not', async () => {
    const post = await TypedPost.create({ author: 'lu', views: 3 });
    const views = await TypedPost.withLock(post.id, (locked) => locked.views);
    const author = await TypedPost.withLock(post.id, async (locked) => locked.author);
    assertType<Equal<typeof views, number>>();
    assertType<Equal<typeof author, string>>();
    // @ts-expect-error work is given the object: a TypedPost has no email
    await TypedPost.withLock(post.id, (locked) => locked.email).catch(() => undefined);
    expect([views, author]).toEqual([3, 'lu']);
  });
});

describe('@Counter and @Version', () => {
  it('go on properties declared as numbers (and SchemaError at runtime otherwise)', () => {
    @Model()
    class TypedScore extends BaseEntity {
      @Counter() hits = 0;
      @Counter() misses?: number;
      @Version() version?: number;
    }
    expect(TypedScore.build().hits).toBe(0);
    expect(() => {
      @Model()
      class TypedBadCounter extends BaseEntity {
        // @ts-expect-error a counter holds a number
        @Counter() hits?: string;
      }
      return TypedBadCounter.build();
    }).toThrow(SchemaError);
    expect(() => {
      @Model()
      class TypedBadVersion extends BaseEntity {
        // @ts-expect-error a version is a number
        @Version() version?: Date;
      }
      return TypedBadVersion.build();
    }).toThrow(/declared as date but given type number/);
  });
});

describe('@DynamicAttrs and @Unique({ caseInsensitive: true })', () => {
  it('@DynamicAttrs goes on a property declared as an object (and SchemaError at runtime otherwise)', () => {
    interface Extras {
      [key: string]: string | number | boolean;
    }
    @Model()
    class TypedBag extends BaseEntity {
      @DynamicAttrs() extra?: Extras;
    }
    expect(TypedBag.build().extra).toBeUndefined();
    expect(() => {
      @Model()
      class TypedListBag extends BaseEntity {
        // @ts-expect-error an array holds no keys of its own
        @DynamicAttrs() extra: string[] = [];
      }
      return TypedListBag;
    }).toThrow(/@DynamicAttrs goes on a property declared as an object/);
    expect(() => {
      @Model()
      class TypedDateBag extends BaseEntity {
        // @ts-expect-error nor a Date
        @DynamicAttrs() extra?: Date;
      }
      return TypedDateBag;
    }).toThrow(/not Date/);
  });

  it('caseInsensitive goes on a string attribute (and SchemaError at runtime otherwise)', () => {
    @Model()
    class TypedAccount extends BaseEntity {
      @Attr() @Unique({ caseInsensitive: true }) email?: string;
      @Attr() @Unique() number?: number;
      @Attr() @Unique({ caseInsensitive: false }) code?: number;
    }
    expect(TypedAccount.build({ email: 'A@b.c' }).email).toBe('A@b.c');
    expect(() => {
      @Model()
      class TypedBadAccount extends BaseEntity {
        // @ts-expect-error a number has no case
        @Attr() @Unique({ caseInsensitive: true }) number?: number;
      }
      return TypedBadAccount.build();
    }).toThrow(/caseInsensitive applies to string attributes only/);
  });
});

describe('a custom codec and its property', () => {
  const cents: Codec<bigint> = { encode: (value) => value.toString(), decode: (raw) => BigInt(raw) };

  it("the property is declared with the codec's value type", async () => {
    @Model()
    class TypedInvoice extends BaseEntity {
      @Attr({ codec: cents }) total?: bigint;
      @Attr({ codec: cents }) paid!: bigint | null;
      // @ts-expect-error a Codec<bigint> on a property declared number (it would hold a bigint)
      @Attr({ codec: cents }) due?: number;
      // @ts-expect-error nor on a wider type, which encode could not take
      @Attr({ codec: cents }) note?: bigint | string;
    }
    const invoice = await TypedInvoice.create({ total: 5n, due: 7 as never });
    const found = await TypedInvoice.findOrFail(invoice.id);
    expect([found.total, found.due]).toEqual([5n, 7n]);
  });
});
