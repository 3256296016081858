import { MaxLength } from 'class-validator';
import { ArgumentError, Attr, BaseEntity, Index, Model, Unique, UniqueConstraintError, ValidationError } from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * saveMany: instances and attribute objects of new objects, changes to loaded ones, mixed in one call; each
 * item saved as save() would save it, the failures reported per item, the others written.
 */

@Model()
class BulkPost extends BaseEntity {
  @Attr() @MaxLength(20) author!: string;
  @Attr() @Index() topic!: string;
  @Attr() content?: string;
  @Attr() @Index() createdAt!: Date;
  @Attr() @Unique() slug?: string;
}

const redis = useTestRedis();

describe('saveMany', () => {
  it('creates instances and attribute objects, in order, with sequence ids and every index entry', async () => {
    const built = BulkPost.build({ author: 'ann', topic: 'redis', createdAt: new Date(1000) });
    const result = await BulkPost.saveMany([built, { author: 'bob', topic: 'lua', createdAt: new Date(2000), slug: 'b' }]);
    expect(result.ok).toBe(true);
    expect(result.failed).toEqual([]);
    expect(result.saved).toHaveLength(2);
    expect(result.saved[0]).toBe(built);
    expect(result.saved[1]).toBeInstanceOf(BulkPost);
    expect(Number(result.saved[1].id)).toBe(Number(result.saved[0].id) + 1);
    expect(built.isPersisted()).toBe(true);
    const found = await BulkPost.findMany(result.saved.map((post) => post.id));
    expect(found.map((post) => post?.author)).toEqual(['ann', 'bob']);
    expect((await BulkPost.findOneBy({ slug: 'b' }))?.id).toBe(result.saved[1].id);
    expect(await BulkPost.findIds({ topic: 'redis' })).toEqual([built.id]);
    await expectIndexesConsistent(BulkPost, redis.raw, redis.prefix);
  });

  it('one bad item does not lose the others: invalid, unknown attribute, unique conflict, not an object', async () => {
    const taken = await BulkPost.create({ author: 'x', topic: 't', createdAt: new Date(5), slug: 'taken' });
    const items = [
      { author: 'ok1', topic: 't', createdAt: new Date(10) },
      { author: 'a name far too long for the rule', topic: 't', createdAt: new Date(11) },
      { author: 'ok2', topic: 't', createdAt: new Date(12), slug: 'taken' },
      { author: 'ok3', topic: 't', createdAt: new Date(13), nope: 1 } as never,
      null as never,
      { author: 'ok4', topic: 't', createdAt: new Date(14), slug: 'fresh' },
      { author: 'ok5', topic: 't', createdAt: new Date(15), slug: 'fresh' },
      { author: 'ok6', topic: 't', createdAt: new Date('nope') },
    ];
    const result = await BulkPost.saveMany(items);
    expect(result.ok).toBe(false);
    expect(result.saved.map((post) => post.author)).toEqual(['ok1', 'ok4']);
    expect(result.failed.map((failure) => failure.index)).toEqual([1, 2, 3, 4, 6, 7]);
    const [tooLong, conflict, unknown, notObject, inBatch, badDate] = result.failed;
    expect(tooLong.error).toBeInstanceOf(ValidationError);
    expect(tooLong.entity?.author).toBe(items[1].author);
    expect(conflict.error).toBeInstanceOf(UniqueConstraintError);
    expect(conflict.error).toMatchObject({ attribute: 'slug', value: 'taken' });
    expect(unknown.error).toBeInstanceOf(ValidationError);
    expect(unknown.entity).toBeUndefined();
    expect(notObject.error).toBeInstanceOf(ArgumentError);
    expect(inBatch.error).toBeInstanceOf(UniqueConstraintError);
    expect(badDate.error).toBeInstanceOf(ValidationError);
    expect(result.failed.every((failure) => !failure.written)).toBe(true);
    expect(result.failed.every((failure) => failure.entity === undefined || !failure.entity.isPersisted())).toBe(true);
    expect((await BulkPost.findOneBy({ slug: 'taken' }))?.id).toBe(taken.id);
    expect((await BulkPost.findOneBy({ slug: 'fresh' }))?.author).toBe('ok4');
    await expectIndexesConsistent(BulkPost, redis.raw, redis.prefix);
  });

  it('rejects a call that is not given an array, and a bad chunkSize', async () => {
    await expect(BulkPost.saveMany('posts' as never)).rejects.toBeInstanceOf(ArgumentError);
    await expect(BulkPost.saveMany([], { chunkSize: 0 })).rejects.toBeInstanceOf(ArgumentError);
    await expect(BulkPost.saveMany([], { chunkSize: 1.5 })).rejects.toBeInstanceOf(ArgumentError);
    expect(await BulkPost.saveMany([])).toEqual({ ok: true, saved: [], failed: [] });
  });
});
