import { Attr, BaseEntity, BelongsTo, HasMany, Index, Model, QueryError, SortableString } from '../../src';
import type { Where } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * A where condition whose value is undefined is a QueryError naming the attribute, at every query entry point:
 * read as "no condition" it would match every object (`Channel.count({ userId: user.id })` with an id not set).
 */

@Model({ group: 'uw' })
class UwUser extends BaseEntity {
  @Attr() name!: string;
  @HasMany(() => UwChannel, { inverse: 'user', onDelete: 'cascade' }) channels!: HasMany<UwChannel>;
}

@Model({ group: 'uw' })
class UwChannel extends BaseEntity {
  @Attr() @Index({ sortable: true }) title!: SortableString;
  @Attr() @Index() views = 0;
  @BelongsTo(() => UwUser) user!: BelongsTo<UwUser>;
  userId?: string;
}

useTestRedis();

beforeEach(async () => {
  await UwChannel.removeMany(await UwChannel.findIds());
  await UwUser.removeMany(await UwUser.findIds());
});

const message = /^UwChannel\.userId is undefined in a where; omit the key/;

async function seeded(): Promise<UwUser> {
  const ann = await UwUser.create({ name: 'ann' });
  const bob = await UwUser.create({ name: 'bob' });
  await UwChannel.create({ title: 'a', views: 1, userId: ann.id });
  await UwChannel.create({ title: 'b', views: 2, userId: bob.id });
  return UwUser.build({ name: 'never saved' });
}

describe('a where condition that is undefined', () => {
  it('is a QueryError naming the attribute for count, findBy, findOneBy, findIds and iterate', async () => {
    const unsaved = await seeded();
    const where = { userId: unsaved.id } as Where<UwChannel>;
    await expect(UwChannel.count(where)).rejects.toThrow(QueryError);
    await expect(UwChannel.count(where)).rejects.toThrow(message);
    await expect(UwChannel.findBy(where)).rejects.toThrow(message);
    await expect(UwChannel.findOneBy(where)).rejects.toThrow(message);
    await expect(UwChannel.findIds(where)).rejects.toThrow(message);
    await expect(UwChannel.findIds(where, { orderBy: { views: 'desc' } })).rejects.toThrow(message);
    await expect(UwChannel.iterate(where).next()).rejects.toThrow(message);
    // the count the trap would have given was every channel
    expect(await UwChannel.count()).toBe(2);
  });

  it('is refused inside an OR, as an operator value, and as the OR itself', async () => {
    await seeded();
    await expect(UwChannel.findIds({ OR: [{ views: 1 }, { userId: undefined }] })).rejects.toThrow(message);
    await expect(UwChannel.count({ views: { gte: 1, lte: undefined } })).rejects.toThrow(/^UwChannel\.views\.lte is undefined in a where/);
    await expect(UwChannel.findIds({ title: { startsWith: undefined } })).rejects.toThrow(/^UwChannel\.title\.startsWith is undefined/);
    await expect(UwChannel.count({ views: 1, OR: undefined })).rejects.toThrow(/^UwChannel\.OR is undefined in a where/);
  });

  it('leaves queries without the key, and a where that is undefined as a whole, as they were', async () => {
    await seeded();
    expect(await UwChannel.count({})).toBe(2);
    expect(await UwChannel.count(undefined)).toBe(2);
    expect(await UwChannel.findIds({ views: { gte: 2 } })).toHaveLength(1);
    expect(await UwChannel.findIds(undefined, { limit: 5 })).toHaveLength(2);
  });

  it('is refused through a relation handle too', async () => {
    const ann = await UwUser.create({ name: 'ann' });
    await ann.channels.create({ title: 'c', views: 3 });
    await expect(ann.channels.count({ views: undefined })).rejects.toThrow(/^UwChannel\.views is undefined in a where/);
    await expect(ann.channels.findBy({ title: undefined })).rejects.toThrow(/^UwChannel\.title is undefined in a where/);
    expect(await ann.channels.count({})).toBe(1);
  });
});
