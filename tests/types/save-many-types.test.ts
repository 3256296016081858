import {
  ArgumentError,
  Attr,
  AttributeInput,
  BaseEntity,
  EntityClass,
  ManyToMany,
  Model,
  SaveManyItem,
  SaveManyResult,
  ValidationError,
} from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * What the compiler accepts and refuses as the items of saveMany. ts-jest type-checks this file: every
 * `// @ts-expect-error` line must fail to compile (an unused one fails the run), and every other line must
 * compile. Each test also runs, and asserts what happens at runtime: an item refused here fails with a
 * ValidationError or an ArgumentError, and nothing of it is written.
 */

@Model()
class SmTag extends BaseEntity {
  @Attr() label!: string;
}

@Model()
class SmPost extends BaseEntity {
  @Attr() title!: string;
  @Attr() views = 0;
  @Attr() state: 'draft' | 'live' = 'draft';
  @Attr({ type: 'json' }) labels: string[] = [];
  @ManyToMany(() => SmTag) tags!: ManyToMany<SmTag>;

  summary(): string {
    return `${this.title} (${this.views})`;
  }
}

/** Shares the attribute `title` with SmPost, and nothing else. */
@Model()
class SmByline extends BaseEntity {
  @Attr() title?: string;
}

/** A class of the caller's own: its method is on its prototype, and saveMany reads own properties only. */
class SmDraft {
  title = 'from a class';
  views = 4;

  describe(): string {
    return this.title;
  }
}

/** Compiles only when X and Y are the same type. */
type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | undefined {
  return undefined;
}

useTestRedis();

function titles(result: SaveManyResult<SmPost>): string[] {
  return result.saved.map((post) => post.title);
}

describe('an attribute object holding a key that is not an attribute', () => {
  it('is refused, as build() and create() refuse it (and fails with ValidationError at runtime)', async () => {
    const other = SmPost.build({ title: 'other' });
    const before = await SmPost.count();
    // @ts-expect-error the id is chosen by the model, not given
    const withId = await SmPost.saveMany([{ title: 'a', id: '7' }]);
    // @ts-expect-error a method's name is not an attribute, even with undefined as its value
    const withSave = await SmPost.saveMany([{ title: 'b', save: undefined }]);
    // @ts-expect-error nor is the name of a method of the model's own
    const withSummary = await SmPost.saveMany([{ title: 'c', summary: undefined }]);
    // @ts-expect-error a relation handle is not an attribute, even one of the model's
    const withRelation = await SmPost.saveMany([{ title: 'd', tags: other.tags }]);
    // @ts-expect-error `titel` is not an attribute of SmPost
    const misspelt = await SmPost.saveMany([{ titel: 'e', views: 1 }]);
    const results = [withId, withSave, withSummary, withRelation, misspelt];
    expect(results.map((result) => result.saved.length)).toEqual([0, 0, 0, 0, 0]);
    for (const result of results) expect(result.failed[0].error).toBeInstanceOf(ValidationError);
    expect(results.map((result) => result.failed[0].error.message)).toEqual([
      expect.stringContaining('id is not an attribute'),
      expect.stringContaining('no attribute save'),
      expect.stringContaining('no attribute summary'),
      expect.stringContaining('no attribute tags'),
      expect.stringContaining('no attribute titel'),
    ]);
    expect(await SmPost.count()).toBe(before);
  });

  it('is refused among good items, and in an array built with map', async () => {
    const before = await SmPost.count();
    const post = SmPost.build({ title: 'fine' });
    // @ts-expect-error the third item holds an id
    const mixed = await SmPost.saveMany([post, { title: 'also fine' }, { title: 'g', id: '8' }]);
    const rows = [{ key: '9', title: 'h' }];
    // @ts-expect-error each item holds an id
    const mapped = await SmPost.saveMany(rows.map((row) => ({ id: row.key, title: row.title })));
    expect(titles(mixed)).toEqual(['fine', 'also fine']);
    expect(mixed.failed.map(({ index, error }) => [index, error.constructor])).toEqual([[2, ValidationError]]);
    expect(mapped.failed[0].error).toBeInstanceOf(ValidationError);
    expect(await SmPost.count()).toBe(before + 2);
  });
});

describe('what saveMany accepts', () => {
  it('instances (new and loaded), attribute literals and a Partial of the model, mixed in one array', async () => {
    const loaded = await SmPost.create({ title: 'loaded' });
    loaded.views = 5;
    const built = SmPost.build({ title: 'built' });
    const partial: Partial<SmPost> = { title: 'partial', views: 2 };
    const result = await SmPost.saveMany([
      loaded,
      built,
      partial,
      { title: 'literal', state: 'live', labels: ['x'] },
      { ...partial, title: 'spread' },
    ]);
    assertType<Equal<typeof result, SaveManyResult<SmPost>>>();
    expect(result.failed).toEqual([]);
    expect(titles(result)).toEqual(['loaded', 'built', 'partial', 'literal', 'spread']);
    expect((await SmPost.findOrFail(loaded.id)).views).toBe(5);
    expect(result.saved[3]).toMatchObject({ state: 'live', labels: ['x'] });
  });

  it('a readonly array, an array built with map, a frozen instance and an object of a class of the caller’s own', async () => {
    const items: ReadonlyArray<SmPost | Partial<SmPost>> = [SmPost.build({ title: 'r1' }), { title: 'r2' }];
    const fromReadonly = await SmPost.saveMany(items);
    const rows = [{ title: 'm1' }, { title: 'm2', views: 3 }];
    const fromBuild = await SmPost.saveMany(rows.map((row) => SmPost.build(row)));
    const fromLiterals = await SmPost.saveMany(rows.map((row) => ({ ...row, state: 'live' as const })));
    const frozen = await SmPost.saveMany([Object.freeze(SmPost.build({ title: 'frozen' }))]);
    const own = await SmPost.saveMany([new SmDraft()]);
    expect([fromReadonly, fromBuild, fromLiterals, frozen, own].map(titles)).toEqual([
      ['r1', 'r2'],
      ['m1', 'm2'],
      ['m1', 'm2'],
      ['frozen'],
      ['from a class'],
    ]);
    expect(fromLiterals.saved.map((post) => post.state)).toEqual(['live', 'live']);
  });

  it('items of a caller generic over its model, as before', async () => {
    async function saveAll<T extends BaseEntity>(
      model: EntityClass<T> & typeof BaseEntity,
      instances: T[],
      attributes: Array<AttributeInput<T>>,
      items: ReadonlyArray<SaveManyItem<T>>,
    ): Promise<number[]> {
      const results = [await model.saveMany(instances), await model.saveMany(attributes), await model.saveMany(items)];
      return results.map((result) => result.saved.length);
    }
    const counts = await saveAll<SmPost>(
      SmPost,
      [SmPost.build({ title: 'g1' })],
      [{ title: 'g2' }],
      [SmPost.build({ title: 'g3' }), { title: 'g4' }],
    );
    expect(counts).toEqual([1, 1, 2]);
  });
});

describe('an entity of another model', () => {
  it('is refused, as is a frozen one (and ArgumentError at runtime)', async () => {
    const byline = await SmByline.create({ title: 'shared' });
    const before = await SmPost.count();
    // @ts-expect-error neither an SmPost nor attributes, though its attribute fits
    const given = await SmPost.saveMany([byline]);
    // @ts-expect-error frozen, it is typed Readonly<SmByline>, which holds an id
    const frozen = await SmPost.saveMany([Object.freeze(byline)]);
    for (const result of [given, frozen]) expect(result.failed[0].error).toBeInstanceOf(ArgumentError);
    expect(await SmPost.count()).toBe(before);
  });
});
