import { ArgumentError, Attr, BaseEntity, Index, Model, Persisted, Unique, UpsertResult, ValidationError } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * What the compiler accepts and refuses of Model.update, Model.upsert and the `ttl` option. ts-jest
 * type-checks this file: every `// @ts-expect-error` line must fail to compile (an unused one fails the run),
 * and every other line must compile. Each test also runs, and asserts what happens at runtime.
 */

@Model({ expirable: true })
class WtItem extends BaseEntity {
  @Attr() @Unique() url!: string;
  @Attr() title!: string;
  @Attr() views = 0;

  label(): string {
    return `${this.title} (${this.views})`;
  }
}

@Model()
class WtBag extends BaseEntity {
  @Attr({ type: 'json' }) @Index({ each: true }) tags?: string[];
  @Attr({ type: 'json' }) scores!: number[];
  @Attr({ type: 'json' }) meta?: { push: string };
  @Attr() title?: string;
}

/** Compiles only when X and Y are the same type. */
type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
const sameType = <X, Y>(proof: Equal<X, Y>) => proof;

useTestRedis();

describe('the types of Model.update', () => {
  it('takes attribute names of the model, each of its type or null, and resolves to the model', async () => {
    const item = await WtItem.create({ url: 'u1', title: 'one' });
    const updated = await WtItem.update(item.id, { title: 'two', views: null }, { ttl: 60, validate: true });
    sameType<typeof updated, Persisted<WtItem>>(true);
    expect(updated.title).toBe('two');

    // @ts-expect-error an unknown attribute name fails to compile
    await expect(WtItem.update(item.id, { titel: 'x' })).rejects.toThrow(ValidationError);
    // @ts-expect-error a value of another type fails to compile
    await expect(WtItem.update(item.id, { views: 'many' })).rejects.toThrow(ValidationError);
    // @ts-expect-error a method is no attribute
    await expect(WtItem.update(item.id, { label: 'x' })).rejects.toThrow(ValidationError);
    // @ts-expect-error the id is the first argument, never an attribute to write
    await expect(WtItem.update(item.id, { id: '2' })).rejects.toThrow(ArgumentError);
    // @ts-expect-error an entity is not an object of attributes
    await expect(WtItem.update(item.id, item)).rejects.toThrow(ArgumentError);
    // @ts-expect-error update takes no waitReplicas
    await expect(WtItem.update(item.id, {}, { waitReplicas: 1 })).rejects.toThrow(ArgumentError);
  });
});

describe('the types of the array operators of Model.update', () => {
  it('take a value or an array of values of the element type, on array attributes only', async () => {
    const bag = await WtBag.create({ tags: ['a'], scores: [1], meta: { push: 'p' } });
    const pushed = await WtBag.update(bag.id, { tags: { push: 'b' }, scores: { addToSet: [1, 2] } });
    sameType<typeof pushed, Persisted<WtBag>>(true);
    expect(pushed.tags).toEqual(['a', 'b']);
    expect((await WtBag.update(bag.id, { tags: { pull: ['a', 'b'] }, scores: { push: 3 } })).scores).toEqual([1, 2, 3]);

    // @ts-expect-error an element of another type fails to compile
    await expect(WtBag.update(bag.id, { tags: { push: 1 } })).rejects.toThrow(ValidationError);
    // @ts-expect-error an array of elements of another type fails to compile
    await expect(WtBag.update(bag.id, { tags: { addToSet: [1, 2] } })).rejects.toThrow(ValidationError);
    // @ts-expect-error an unknown operator fails to compile
    await expect(WtBag.update(bag.id, { tags: { append: 'x' } })).rejects.toThrow(ArgumentError);
    // @ts-expect-error an operator on an attribute that is not an array fails to compile
    await expect(WtBag.update(bag.id, { title: { push: 'x' } })).rejects.toThrow(ArgumentError);
    // @ts-expect-error nor on a JSON object attribute
    await expect(WtBag.update(bag.id, { meta: { pull: 'x' } })).rejects.toThrow(ValidationError);
    // @ts-expect-error two operators in one object fail to compile
    await expect(WtBag.update(bag.id, { tags: { push: 'x', pull: 'y' } })).rejects.toThrow(ArgumentError);
  });
});

describe('the types of Model.upsert', () => {
  it('takes an attribute name or a list of them as on, and resolves to { entity, created }', async () => {
    const result = await WtItem.upsert({ url: 'u2', title: 'a' }, { on: 'url', update: false, ttl: 5 });
    sameType<typeof result, UpsertResult<WtItem>>(true);
    sameType<typeof result.entity, Persisted<WtItem>>(true);
    expect(result.created).toBe(true);
    // a list compiles (a composite unique's attributes); this model has none: an ArgumentError
    await expect(WtItem.upsert({ url: 'u2', title: 'a' }, { on: ['url', 'title'] })).rejects.toThrow(ArgumentError);

    // @ts-expect-error on must name an attribute
    await expect(WtItem.upsert({ url: 'u3', title: 'a' }, { on: 'uri' })).rejects.toThrow(ArgumentError);
    // @ts-expect-error on is required
    await expect(WtItem.upsert({ url: 'u3', title: 'a' }, {})).rejects.toThrow(ArgumentError);
    // @ts-expect-error an unknown attribute name fails to compile
    await expect(WtItem.upsert({ url: 'u3', titel: 'a' }, { on: 'url' })).rejects.toThrow(ValidationError);
    // @ts-expect-error update is a boolean
    await expect(WtItem.upsert({ url: 'u3', title: 'a' }, { on: 'url', update: 'no' })).rejects.toThrow(ArgumentError);
  });

  it('takes a ttl in the options of create and save, and not of saveMany', async () => {
    const item = await WtItem.create({ url: 'u4', title: 't' }, { ttl: 30 });
    await item.save({ ttl: 60 });
    // @ts-expect-error a ttl is a number of seconds
    await expect(item.save({ ttl: '60' })).rejects.toThrow(ArgumentError);
    // @ts-expect-error saveMany takes no ttl
    await expect(WtItem.saveMany([{ url: 'u5', title: 't' }], { ttl: 5 })).rejects.toThrow(ArgumentError);
  });
});
