import { ArgumentError, Attr, BaseEntity, Model, ValidationError, Version } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * What saveMany takes as an item, as create() takes its argument, and which instance a failure reports: the
 * item's own whenever the item is an instance of the model.
 */

@Model()
class ItVersioned extends BaseEntity {
  @Attr() title!: string;
  @Version() version?: number;
}

@Model()
class ItPost extends BaseEntity {
  @Attr() title!: string;
  @Attr() views?: number;
}

/** A class of the caller's own, holding attributes. */
class PostInput {
  title = 'from a class';
  views = 3;
}

/** One whose getter lives on its prototype: not an own property, so not an attribute given (as for create()). */
class PostWithGetter {
  title = 'own';
  get views(): number {
    return 9;
  }
}

/** One with a property the model does not have. */
class PostWithExtra {
  title = 'extra';
  colour = 'red';
}

useTestRedis();

describe('a frozen instance of a model with @Version', () => {
  it('fails with ArgumentError, reported with the instance given', async () => {
    const frozen = Object.freeze(ItVersioned.build({ title: 'frozen' }));
    const result = await ItVersioned.saveMany([frozen, { title: 'fine' }]);
    expect(result.saved.map(({ title }) => title)).toEqual(['fine']);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0].error).toBeInstanceOf(ArgumentError);
    expect(result.failed[0].error.message).toContain('saveMany: the instance is frozen');
    expect(result.failed[0].entity).toBe(frozen);
    expect(result.failed[0].written).toBe(false);
  });
});

describe("an instance of a class of the caller's own", () => {
  it('is taken as create() takes it: its own properties are the attributes of a new object', async () => {
    const created = await ItPost.create(new PostInput());
    const result = await ItPost.saveMany([new PostInput(), new PostWithGetter()]);
    expect(result.failed).toEqual([]);
    expect(result.saved.map(({ title, views }) => [title, views])).toEqual([
      [created.title, created.views],
      ['own', undefined],
    ]);
    for (const saved of result.saved) expect(saved).toBeInstanceOf(ItPost);
    expect((await ItPost.findOrFail(result.saved[0].id)).views).toBe(3);
  });

  it('with a property that is no attribute fails with ValidationError, as create() does', async () => {
    const refused = await ItPost.create(new PostWithExtra() as never).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ValidationError);
    const result = await ItPost.saveMany([new PostWithExtra() as never]);
    expect(result.failed[0].error).toBeInstanceOf(ValidationError);
    expect(result.failed[0].error.message).toBe((refused as Error).message);
  });
});
