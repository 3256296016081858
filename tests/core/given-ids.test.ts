import { Attr, BaseEntity, Index, InvalidIdError, Model, Unique, UniqueConstraintError, ValidationError } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * `@Model({ idStrategy: 'given' })`: the application names each new object (a feed item's URL hash, a session
 * id). A taken id is a UniqueConstraintError on `id`, an id that could name another key an InvalidIdError, and
 * neither writes anything.
 */

@Model({ idStrategy: 'given' })
class GiItem extends BaseEntity {
  @Attr() @Index() feed!: string;
  @Attr() title!: string;
}

@Model({ idStrategy: 'given' })
class GiSession extends BaseEntity {
  @Attr() @Unique() token!: string;
}

const redis = useTestRedis();

async function keysOf(model: string): Promise<string[]> {
  return (await redis.raw.keys(`${redis.prefix}:{${model}}*`)).sort();
}

describe("idStrategy 'given'", () => {
  it('stores the object under the id given, indexed and found by it', async () => {
    const item = GiItem.build({ id: 'feed-123', feed: 'a', title: 'one' });
    expect([item.id, item.isPersisted()]).toEqual(['feed-123', false]);
    await item.save();
    expect([item.id, item.isPersisted()]).toEqual(['feed-123', true]);
    const created = await GiItem.create({ id: 'feed-124', feed: 'a', title: 'two' });
    expect(created.id).toBe('feed-124');
    expect((await GiItem.findOrFail('feed-123')).title).toBe('one');
    expect((await GiItem.findBy({ feed: 'a' })).map((found) => found.id).sort()).toEqual(['feed-123', 'feed-124']);
    expect(await GiItem.check()).toMatchObject({ ok: true });
  });

  it('refuses a taken id with UniqueConstraintError on id, writing nothing', async () => {
    await GiItem.create({ id: 'taken', feed: 'b', title: 'first' });
    const before = await keysOf('GiItem');
    const error = await GiItem.create({ id: 'taken', feed: 'c', title: 'second' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UniqueConstraintError);
    expect(error).toMatchObject({ model: 'GiItem', attribute: 'id', value: 'taken' });
    expect((await GiItem.findOrFail('taken')).title).toBe('first');
    expect(await GiItem.count({ feed: 'c' })).toBe(0);
    expect(await keysOf('GiItem')).toEqual(before);
  });

  it('refuses an id that could forge a key, and a create with no id', async () => {
    for (const id of ['a:b', '{x}', '*', '', 'x'.repeat(129)]) {
      expect(() => GiItem.build({ id, feed: 'd', title: 't' })).toThrow(InvalidIdError);
    }
    const missing = await GiItem.create({ feed: 'd', title: 't' }).catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(ValidationError);
    expect(String(missing)).toContain('create({ id, ... })');
    expect(await GiItem.count({ feed: 'd' })).toBe(0);
  });

  it('keeps the unique values of a refused create unclaimed', async () => {
    await GiSession.create({ id: 's1', token: 'alpha' });
    await expect(GiSession.create({ id: 's1', token: 'beta' })).rejects.toMatchObject({ attribute: 'id' });
    await expect(GiSession.create({ id: 's2', token: 'alpha' })).rejects.toMatchObject({ attribute: 'token' });
    expect((await GiSession.create({ id: 's2', token: 'beta' })).id).toBe('s2');
    expect(await GiSession.check()).toMatchObject({ ok: true });
  });

  it('saveMany creates each item under its id and refuses only the taken ones', async () => {
    await GiItem.create({ id: 'm2', feed: 'm', title: 'there first' });
    const items = ['m1', 'm2', 'm3', 'm1'].map((id) => GiItem.build({ id, feed: 'm', title: id }));
    const result = await GiItem.saveMany(items);
    expect(result.failed.map(({ index, error }) => [index, (error as UniqueConstraintError).attribute])).toEqual([
      [1, 'id'],
      [3, 'id'],
    ]);
    expect((await GiItem.findBy({ feed: 'm' })).map((item) => [item.id, item.title]).sort()).toEqual([
      ['m1', 'm1'],
      ['m2', 'there first'],
      ['m3', 'm3'],
    ]);
  });

  it('refuses an id on a model that draws its ids', async () => {
    @Model()
    class GiDrawn extends BaseEntity {
      @Attr() name!: string;
    }
    await expect(GiDrawn.create({ id: '5', name: 'x' })).rejects.toThrow("idStrategy: 'given'");
    expect(await GiDrawn.count()).toBe(0);
  });
});
