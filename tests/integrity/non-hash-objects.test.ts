import { Attr, BaseEntity, BelongsTo, HasMany, Index, ManyToMany, Model, RelationError, Unique } from '../../src';
import { keysUnder, useTestRedis } from '../support/test-redis';
import { snapshot } from './support/key-snapshots';

/**
 * A key of another type than a hash at an object's key is no object, as check() reads it (`wrongType`): the
 * scripts agree. It holds no unique value, is no parent a foreign key may name, is no object a many-to-many
 * add may link, and is no child that restricts a removal.
 */

@Model({ group: 'nh' })
class NhAuthor extends BaseEntity {
  @Attr() @Unique() handle?: string;
  @HasMany(() => NhBook, { inverse: 'author', onDelete: 'restrict' }) books!: HasMany<NhBook>;
}

@Model({ group: 'nh' })
class NhBook extends BaseEntity {
  @Attr() title?: string;
  @BelongsTo(() => NhAuthor) author!: BelongsTo<NhAuthor>;
  authorId?: string;
}

@Model({ group: 'nh' })
class NhNote extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr() @Index({ sortable: true }) title?: string;
}

@Model({ group: 'nh' })
class NhReader extends BaseEntity {
  @Attr() name?: string;
  @ManyToMany(() => NhBadge, { inverse: 'readers' }) badges!: ManyToMany<NhBadge>;
}

@Model({ group: 'nh' })
class NhBadge extends BaseEntity {
  @Attr() label?: string;
  @ManyToMany(() => NhReader, { inverse: 'badges' }) readers!: ManyToMany<NhReader>;
}

const redis = useTestRedis();
const objectKey = (model: string, id: string) => `${redis.prefix}:{nh}:${model}:obj:${id}`;

/** Replaces the object's hash with a string, as a program writing by hand would. */
async function overwrite(model: string, id: string): Promise<string> {
  const key = objectKey(model, id);
  await redis.raw.del(key);
  await redis.raw.set(key, 'written by hand');
  return key;
}

describe('a key that is not a hash is no object', () => {
  it('a unique value whose owner is a string key is free to take', async () => {
    const ann = await NhAuthor.create({ handle: 'ann' });
    const key = await overwrite('NhAuthor', ann.id!);
    expect((await NhAuthor.check()).violations).toContainEqual(expect.objectContaining({ kind: 'wrongType', id: ann.id, key }));
    const other = await NhAuthor.create({ handle: 'ann' });
    expect(await redis.raw.hGet(`${redis.prefix}:{nh}:NhAuthor:uniq:handle`, 'ann')).toBe(other.id);
    expect(await redis.raw.get(key)).toBe('written by hand');
  });

  it('a foreign key naming a string key is refused: no parent', async () => {
    const bob = await NhAuthor.create({ handle: 'bob' });
    await overwrite('NhAuthor', bob.id!);
    const books = await NhBook.count();
    await expect(NhBook.create({ title: 'T', authorId: bob.id } as never)).rejects.toThrow(RelationError);
    const [saved] = (await NhBook.saveMany([{ title: 'T', authorId: bob.id } as never])).failed;
    expect(saved.error).toBeInstanceOf(RelationError);
    expect(await NhBook.count()).toBe(books);
  });

  it('is not found: find, findMany and exists read it as no object', async () => {
    const dan = await NhAuthor.create({ handle: 'dan' });
    const eve = await NhAuthor.create({ handle: 'eve' });
    await overwrite('NhAuthor', dan.id!);
    expect(await NhAuthor.find(dan.id!)).toBeNull();
    expect(await NhAuthor.exists(dan.id!)).toBe(false);
    expect((await NhAuthor.findMany([dan.id!, eve.id!])).map((found) => found?.handle ?? null)).toEqual([null, 'eve']);
  });

  it('a query loading objects, or ordering ids by a sortable string, leaves it out; one reading indexes alone lists it', async () => {
    const [a, b, c] = (
      await NhNote.saveMany([
        { topic: 't', title: 'a' },
        { topic: 't', title: 'b' },
        { topic: 't', title: 'c' },
      ])
    ).saved;
    await overwrite('NhNote', b.id!);
    expect((await NhNote.findBy({ topic: 't' })).map(({ id }) => id)).toEqual([a.id, c.id]);
    expect(await NhNote.findIds({ topic: 't' }, { orderBy: { title: 'desc' } })).toEqual([c.id, a.id]);
    // findIds and count(where) read index keys and `all` only: the id is still listed there, and check() names it
    expect(await NhNote.findIds({ topic: 't' })).toEqual([a.id, b.id, c.id]);
    expect((await NhNote.check()).violations).toContainEqual(expect.objectContaining({ kind: 'wrongType', id: b.id }));
    // no temporary key is left
    expect((await keysUnder(redis.raw, redis.prefix)).filter((name) => name.includes(':tmp:'))).toEqual([]);
  });

  it('is no object a many-to-many add may link, on either side: RelationError, nothing written', async () => {
    const reader = await NhReader.create({ name: 'fay' });
    const badge = await NhBadge.create({ label: 'string' });
    await overwrite('NhBadge', badge.id!);
    const before = await snapshot(redis.raw, redis.prefix);
    await expect(reader.badges.add(badge.id!)).rejects.toThrow(new RelationError('NhReader.badges: the NhBadge object does not exist'));
    expect(await snapshot(redis.raw, redis.prefix)).toEqual(before);

    const other = await NhBadge.create({ label: 'hash' });
    await overwrite('NhReader', reader.id!);
    const unchanged = await snapshot(redis.raw, redis.prefix);
    await expect(other.readers.add(reader.id!)).rejects.toThrow(new RelationError('NhBadge.readers: the NhReader object does not exist'));
    await expect(reader.badges.add(other.id!)).rejects.toThrow(new RelationError('NhReader.badges: the NhReader object does not exist'));
    expect(await snapshot(redis.raw, redis.prefix)).toEqual(unchanged);
  });

  it('a child whose key holds a string does not restrict its parent’s removal', async () => {
    const cyd = await NhAuthor.create({ handle: 'cyd' });
    const book = await NhBook.create({ title: 'T', authorId: cyd.id } as never);
    await overwrite('NhBook', book.id!);
    const id = cyd.id!;
    await cyd.remove();
    expect(await NhAuthor.exists(id)).toBe(false);
  });
});
