import { Attr, BaseEntity, BelongsTo, HasMany, Index, Model, RelationError, Unique } from '../../src';
import { expectRelationsConsistent } from '../support/relation-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * saveMany creates its new objects as save() called for each in the given order would: a later item may name an
 * earlier item of the same call as its parent, whether the two are in one chunk or in two, and whichever way
 * each chunk is written. An item naming a later one fails, as save() of it would.
 */

/** A self-reference and nothing else to check: a chunk setting no foreign key has nothing to check either. */
@Model()
class OrdReply extends BaseEntity {
  @Attr() text!: string;
  @Attr() @Index() thread?: string;
  @BelongsTo(() => OrdReply) replyTo!: BelongsTo<OrdReply>;
  replyToId?: string;
  @HasMany(() => OrdReply, { inverse: 'replyTo', onDelete: 'cascade' }) replies!: HasMany<OrdReply>;
}

/** A self-reference beside a unique value. */
@Model()
class OrdTopic extends BaseEntity {
  @Attr() @Unique() slug!: string;
  @BelongsTo(() => OrdTopic) parent!: BelongsTo<OrdTopic>;
  parentId?: string;
}

/** A self-reference on a model with a time to live: save-many.lua applies it object by object. */
@Model({ ttl: 3600 })
class OrdNote extends BaseEntity {
  @Attr() text!: string;
  @BelongsTo(() => OrdNote) previous!: BelongsTo<OrdNote>;
  previousId?: string;
}

const redis = useTestRedis();

/** The id the next sequence draw of `model` gives. */
async function nextId(model: string): Promise<number> {
  return Number((await redis.raw.get(`${redis.prefix}:{${model}}:seq`)) ?? 0) + 1;
}

describe('a later item names an earlier item of the call as its parent', () => {
  it.each([1, 2, 250])('OrdReply, chunks of %i', async (chunkSize) => {
    const first = await nextId('OrdReply');
    const result = await OrdReply.saveMany(
      [
        { text: 'parent', thread: 't' },
        { text: 'child', replyToId: String(first) },
        { text: 'grandchild', replyToId: String(first + 1) },
      ],
      { chunkSize },
    );
    expect(result.failed).toEqual([]);
    expect(result.saved.map(({ id }) => id)).toEqual([first, first + 1, first + 2].map(String));
    expect(result.saved.map(({ replyToId }) => replyToId)).toEqual([undefined, String(first), String(first + 1)]);
    expect((await OrdReply.findOrFail(first + 2)).replyToId).toBe(String(first + 1));
    await expectRelationsConsistent([OrdReply], redis.raw, redis.prefix);
  });

  it('in a long chain across chunks in flight, each item replying to the one before it', async () => {
    const first = await nextId('OrdReply');
    const items = Array.from({ length: 100 }, (_, i) => ({ text: `r${i}`, ...(i > 0 && { replyToId: String(first + i - 1) }) }));
    const result = await OrdReply.saveMany(items, { chunkSize: 7 });
    expect(result.failed).toEqual([]);
    expect(result.saved.map(({ id }) => Number(id))).toEqual(items.map((_, i) => first + i));
    await expectRelationsConsistent([OrdReply], redis.raw, redis.prefix);
  });

  it('an item naming a later item fails with RelationError, as save() of it would; the others are saved', async () => {
    const first = await nextId('OrdReply');
    // the first item names the id the second is about to take: not stored when the first is saved
    const result = await OrdReply.saveMany([
      { text: 'too early', replyToId: String(first + 1) },
      { text: 'later' },
      { text: 'fine', replyToId: String(first + 1) },
    ]);
    expect(result.failed.map(({ index, error }) => [index, error.constructor])).toEqual([[0, RelationError]]);
    // ids are drawn before the writes, in order (so that an item whose reply is lost keeps its id): the refused
    // item leaves `first` unused, the second takes `first + 1`, and the third names it
    expect(result.saved.map(({ id, text }) => [id, text])).toEqual([
      [String(first + 1), 'later'],
      [String(first + 2), 'fine'],
    ]);
    await expectRelationsConsistent([OrdReply], redis.raw, redis.prefix);
  });

  it.each([1, 250])('beside a unique value (OrdTopic), chunks of %i', async (chunkSize) => {
    const first = await nextId('OrdTopic');
    const result = await OrdTopic.saveMany(
      [
        { slug: `root${chunkSize}` },
        { slug: `leaf${chunkSize}`, parentId: String(first) },
        { slug: `root${chunkSize}`, parentId: String(first) },
      ],
      { chunkSize },
    );
    expect(result.saved.map(({ slug }) => slug)).toEqual([`root${chunkSize}`, `leaf${chunkSize}`]);
    expect(result.failed.map(({ index }) => index)).toEqual([2]);
    expect(result.saved[1].parentId).toBe(result.saved[0].id);
    await expectRelationsConsistent([OrdTopic], redis.raw, redis.prefix);
  });

  it('on a model with a time to live (OrdNote)', async () => {
    const first = await nextId('OrdNote');
    const result = await OrdNote.saveMany([{ text: 'a' }, { text: 'b', previousId: String(first) }]);
    expect(result.failed).toEqual([]);
    expect(result.saved[1].previousId).toBe(result.saved[0].id);
  });
});
