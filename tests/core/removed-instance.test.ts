import { Attr, BaseEntity, BelongsTo, HasMany, Index, Model, RedisRecordError, RelationError, RemovedEntityError } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * After remove() the instance keeps its id, as ActiveRecord's do: isPersisted() is false and isRemoved() true.
 * Saving it again is a RemovedEntityError (nothing written), and it names no object for relations or queries.
 */

@Model({ group: 'ri' })
class RiUser extends BaseEntity {
  @Attr() @Index() name!: string;
  @HasMany(() => RiChannel, { inverse: 'user', onDelete: 'cascade' }) channels!: HasMany<RiChannel>;
}

@Model({ group: 'ri' })
class RiChannel extends BaseEntity {
  @Attr() title!: string;
  @BelongsTo(() => RiUser) user!: BelongsTo<RiUser>;
  userId?: string;
}

const redis = useTestRedis();

describe('an instance after remove()', () => {
  it('keeps its id; isPersisted() is false and isRemoved() true', async () => {
    const user = RiUser.build({ name: 'ann' });
    expect([user.isPersisted(), user.isRemoved()]).toEqual([false, false]);
    await user.save();
    const id = user.id;
    expect([user.isPersisted(), user.isRemoved()]).toEqual([true, false]);
    await user.remove();
    expect(user.id).toBe(id);
    expect([user.isPersisted(), user.isRemoved()]).toEqual([false, true]);
    expect(user.toJSON()).toEqual({ id, name: 'ann' });
    expect(await RiUser.exists(id!)).toBe(false);
  });

  it('refuses a save with RemovedEntityError, writing nothing', async () => {
    const user = await RiUser.create({ name: 'bob' });
    const id = user.id;
    await user.remove();
    const keys = await redis.raw.keys(`${redis.prefix}:*`);
    user.name = 'bob again';
    const error = await user.save().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RemovedEntityError);
    expect(error).toBeInstanceOf(RedisRecordError);
    expect(error).toMatchObject({ model: 'RiUser', id });
    expect((error as Error).message).toBe(`RiUser "${id}" was removed through this instance; build a new instance to store it again`);
    expect((await redis.raw.keys(`${redis.prefix}:*`)).sort()).toEqual(keys.sort());
    expect(user.id).toBe(id);
    // a new instance stores the attributes again, under a new id
    const again = await RiUser.create({ name: user.name });
    expect(again.id).not.toBe(id);
  });

  it('is an item failure of saveMany, the others saved', async () => {
    const gone = await RiUser.create({ name: 'gone' });
    await gone.remove();
    const result = await RiUser.saveMany([{ name: 'new' }, gone]);
    expect(result.saved.map((user) => user.name)).toEqual(['new']);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0]).toMatchObject({ index: 1, written: false });
    expect(result.failed[0].error).toBeInstanceOf(RemovedEntityError);
    expect(gone.isRemoved()).toBe(true);
  });

  it('refuses remove(), reload() and expire-like calls again with RedisRecordError naming the removal', async () => {
    const user = await RiUser.create({ name: 'cid' });
    await user.remove();
    await expect(user.remove()).rejects.toThrow(/^RiUser: this instance is not saved \(it was removed: RiUser "\d+"\)$/);
    await expect(user.reload()).rejects.toThrow(RedisRecordError);
  });

  it('names no object for relations: a handle and a set() refuse it with RelationError', async () => {
    const user = await RiUser.create({ name: 'dan' });
    await user.channels.create({ title: 'c' });
    await user.remove();
    expect(await RiChannel.count()).toBe(0);
    const channel = RiChannel.build({ title: 'd' });
    expect(() => channel.user.set(user)).toThrow(RelationError);
    expect(() => channel.user.set(user)).toThrow('RiChannel.user: the RiUser is not saved (or was removed)');
    await expect(user.channels.count()).rejects.toThrow(RelationError);
    // the trap of issue 50: the id is kept, so a query by it counts what belongs to that id, here nothing
    expect(await RiChannel.count({ userId: user.id } as never)).toBe(0);
  });

  it('of an object removed elsewhere cannot know it; its own remove() then marks it', async () => {
    const user = await RiUser.create({ name: 'eve' });
    const other = await RiUser.findOrFail(user.id);
    await RiUser.removeMany([user.id]);
    expect([other.isPersisted(), other.isRemoved()]).toEqual([true, false]);
    await other.remove(); // the object is gone already: not an error, and the instance is removed
    expect([other.isPersisted(), other.isRemoved(), other.id]).toEqual([false, true, user.id]);
  });
});
