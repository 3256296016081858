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

@Model({ idStrategy: 'uuid' })
class BulkNote extends BaseEntity {
  @Attr() @Unique({ caseInsensitive: true }) title!: string;
  @Attr() @Index() stars?: number;
}

describe('saveMany with loaded objects', () => {
  it('mixes creates and updates; an update writes only what changed and moves its index entries', async () => {
    const [first, second] = (
      await BulkPost.saveMany([
        { author: 'u1', topic: 'old', createdAt: new Date(1) },
        { author: 'u2', topic: 'old', createdAt: new Date(2) },
      ])
    ).saved;
    const loaded = (await BulkPost.find(second.id))!;
    first.topic = 'new';
    loaded.content = 'edited';
    const result = await BulkPost.saveMany([first, { author: 'u3', topic: 'new', createdAt: new Date(3) }, loaded]);
    expect(result.ok).toBe(true);
    expect(result.saved.map((post) => post.author)).toEqual(['u1', 'u3', 'u2']);
    expect(result.saved[0].id).toBe(first.id);
    expect(result.saved[2].id).toBe(second.id);
    expect((await BulkPost.findIds({ topic: 'new' })).sort()).toEqual([first.id, result.saved[1].id].sort());
    expect((await BulkPost.find(second.id))?.content).toBe('edited');
    await expectIndexesConsistent(BulkPost, redis.raw, redis.prefix);
  });

  it('an update of an object removed meanwhile fails with NotFoundError; the others are saved', async () => {
    const { saved } = await BulkPost.saveMany([
      { author: 'gone', topic: 'g', createdAt: new Date(1) },
      { author: 'stays', topic: 'g', createdAt: new Date(2) },
    ]);
    await (await BulkPost.findOrFail(saved[0].id)).remove();
    saved[0].content = 'late';
    saved[1].content = 'fine';
    const result = await BulkPost.saveMany(saved);
    expect(result.saved).toEqual([saved[1]]);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0]).toMatchObject({ index: 0, entity: saved[0], written: false });
    expect(result.failed[0].error.name).toBe('NotFoundError');
    expect(await BulkPost.find(saved[0].id)).toBeNull();
    expect((await BulkPost.find(saved[1].id))?.content).toBe('fine');
  });

  it('the same instance twice in one call is saved once; the repeat is an ArgumentError', async () => {
    const post = BulkPost.build({ author: 'twice', topic: 'tw', createdAt: new Date(1) });
    const result = await BulkPost.saveMany([post, post]);
    expect(result.saved).toEqual([post]);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0].index).toBe(1);
    expect(result.failed[0].error).toBeInstanceOf(ArgumentError);
    expect(await BulkPost.findIds({ topic: 'tw' })).toEqual([post.id]);
  });

  it('names both positions of a repeated instance, counted in the given list', async () => {
    const post = BulkPost.build({ author: 'repeated', topic: 'rep', createdAt: new Date(2) });
    const other = BulkPost.build({ author: 'other', topic: 'rep', createdAt: new Date(3) });
    const result = await BulkPost.saveMany([42 as never, post, other, post, post]);
    expect(result.saved).toEqual([post, other]);
    expect(result.failed.map((failure) => failure.index)).toEqual([0, 3, 4]);
    expect(result.failed[1].error.message).toContain('the same instance is at index 1 and 3');
    expect(result.failed[2].error.message).toContain('the same instance is at index 1 and 4');
  });

  it('names the first position of every repeated instance, also of one first seen after an earlier repeat', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((author, i) => BulkPost.build({ author, topic: 'reps', createdAt: new Date(10 + i) }));
    const result = await BulkPost.saveMany([a, b, a, c, c, b]);
    expect(result.saved).toEqual([a, b, c]);
    expect(result.failed.map((failure) => [failure.index, failure.error.message.replace(/^.*the same instance is /, '')])).toEqual([
      [2, 'at index 0 and 2; it is saved once'],
      [4, 'at index 3 and 4; it is saved once'],
      [5, 'at index 1 and 5; it is saved once'],
    ]);
    expect((await BulkPost.findIds({ topic: 'reps' })).sort()).toEqual([a.id, b.id, c.id].sort());
  });

  it('two saveMany calls sharing an instance: the second waits for the first, then updates what it created', async () => {
    const shared = BulkPost.build({ author: 'shared', topic: 'two-calls', createdAt: new Date(20) });
    const first = BulkPost.saveMany([shared, { author: 'only first', topic: 'two-calls', createdAt: new Date(21) }]);
    shared.content = 'second call';
    const second = BulkPost.saveMany([{ author: 'only second', topic: 'two-calls', createdAt: new Date(22) }, shared]);
    const [one, two] = await Promise.all([first, second]);
    expect(one.ok && two.ok).toBe(true);
    expect(await BulkPost.count({ topic: 'two-calls' })).toBe(3); // the shared instance created once
    expect((await BulkPost.findOrFail(shared.id!)).content).toBe('second call');
    await expectIndexesConsistent(BulkPost, redis.raw, redis.prefix);
  });

  it('an instance of another model is a per-item ArgumentError', async () => {
    const note = BulkNote.build({ title: 'not a post' });
    const result = await BulkPost.saveMany([note as never, { author: 'a', topic: 'other-model', createdAt: new Date(1) }]);
    expect(result.failed.map((failure) => [failure.index, failure.error.constructor])).toEqual([[0, ArgumentError]]);
    expect(result.saved).toHaveLength(1);
    expect(note.isPersisted()).toBe(false);
  });

  it('waits for a save of the same instance already under way, as save() does', async () => {
    const post = BulkPost.build({ author: 'queued', topic: 'q', createdAt: new Date(1) });
    const single = post.save();
    post.content = 'after';
    const result = await BulkPost.saveMany([post]);
    await single;
    expect(result.ok).toBe(true);
    expect(await BulkPost.findIds({ topic: 'q' })).toEqual([post.id]); // created once, then updated
    expect((await BulkPost.find(post.id!))?.content).toBe('after');
  });

  it('uuid ids, case-insensitive unique values within the batch and against stored ones', async () => {
    await BulkNote.create({ title: 'Stored' });
    const result = await BulkNote.saveMany([{ title: 'one', stars: 1 }, { title: 'STORED' }, { title: 'Two' }, { title: 'two' }]);
    expect(result.saved.map((note) => note.title)).toEqual(['one', 'Two']);
    for (const note of result.saved) expect(note.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.failed.map((failure) => [failure.index, failure.error.constructor.name])).toEqual([
      [1, 'UniqueConstraintError'],
      [3, 'UniqueConstraintError'],
    ]);
    await expectIndexesConsistent(BulkNote, redis.raw, redis.prefix);
  });
});
