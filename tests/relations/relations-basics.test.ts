import { Attr, BaseEntity, BelongsTo, HasMany, Index, ManyToMany, Model, RelationError, Unique } from '../../src';
import { keysUnder, useTestRedis } from '../support/test-redis';

@Model({ group: 'blog' })
class RelUser extends BaseEntity {
  @Attr() name!: string;
  @HasMany(() => RelPost, { inverse: 'author', onDelete: 'cascade' }) posts!: HasMany<RelPost>;
  @HasMany(() => RelComment, { inverse: 'writer', onDelete: 'nullify' }) comments!: HasMany<RelComment>;
  @ManyToMany(() => RelTag) tags!: ManyToMany<RelTag>;
}

@Model({ group: 'blog' })
class RelPost extends BaseEntity {
  @BelongsTo(() => RelUser) author!: BelongsTo<RelUser>;
  authorId?: string;
  @Attr() title!: string;
  @Attr() @Index({ scope: 'authorId' }) published!: Date;
  @HasMany(() => RelComment, { inverse: 'post' }) comments!: HasMany<RelComment>;
}

@Model({ group: 'blog' })
class RelComment extends BaseEntity {
  @BelongsTo(() => RelPost) post!: BelongsTo<RelPost>;
  @BelongsTo(() => RelUser) writer!: BelongsTo<RelUser>;
  @Attr() @Index() text!: string;
}

@Model({ group: 'blog' })
class RelTag extends BaseEntity {
  @Attr() @Unique() label!: string;
}

const redis = useTestRedis();

describe('relations', () => {
  it('belongs-to: set by entity or id, saved with the object, loaded, refused when the parent is missing', async () => {
    const ann = await RelUser.create({ name: 'ann' });
    const post = RelPost.build({ title: 'hello', published: new Date(1000) });
    post.author.set(ann);
    const saved = await post.save();
    expect(saved.author.id).toBe(ann.id);
    const loaded = await RelPost.findOrFail(saved.id);
    expect((await loaded.author.load())?.name).toBe('ann');
    loaded.author.set('999');
    await expect(loaded.save()).rejects.toBeInstanceOf(RelationError);
    await expect(RelPost.create({ title: 'x', published: new Date(), authorId: '998' } as never)).rejects.toBeInstanceOf(RelationError);
  });

  it('has-many: queries through the scoped index, counts, creates', async () => {
    const bob = await RelUser.create({ name: 'bob' });
    for (let i = 1; i <= 5; i++) await bob.posts.create({ title: `p${i}`, published: new Date(i * 1000) });
    const newest = await bob.posts.findBy({ published: { gte: new Date(2000) } }, { orderBy: { published: 'desc' }, limit: 2 });
    expect(newest.map((p) => p.title)).toEqual(['p5', 'p4']);
    expect(await bob.posts.count()).toBe(5);
    const withAuthors = await RelPost.findBy({ authorId: bob.id } as never, { include: ['author'], limit: 2 });
    expect(withAuthors.map((p) => p.author.value?.name)).toEqual(['bob', 'bob']);
  });

  it('onDelete: restrict refuses and writes nothing, cascade removes children with their entries, nullify clears', async () => {
    const cat = await RelUser.create({ name: 'cat' });
    const post = await cat.posts.create({ title: 'cat post', published: new Date(5) });
    const comment = await RelComment.create({ text: 'hi' });
    comment.post.set(post);
    comment.writer.set(cat);
    await comment.save();
    await expect(post.remove()).rejects.toBeInstanceOf(RelationError); // restrict: the comment belongs to it
    expect(await RelPost.exists(post.id)).toBe(true);
    await expect(cat.remove()).rejects.toThrow(/RelComment objects still belong/); // cascade reaches the post's restrict
    await comment.remove();
    const other = await RelComment.create({ text: 'by cat' });
    other.writer.set(cat);
    await other.save();
    await cat.remove();
    expect(await RelPost.exists(post.id)).toBe(false);
    const nullified = await RelComment.findOrFail(other.id);
    expect(nullified.writer.id).toBeUndefined();
    expect(await RelComment.count({ text: 'by cat' })).toBe(1);
  });

  it('many-to-many: both sides, removed from the other side on delete', async () => {
    const dan = await RelUser.create({ name: 'dan' });
    const redisTag = await RelTag.create({ label: 'redis' });
    const nodeTag = await RelTag.create({ label: 'node' });
    await dan.tags.add(redisTag);
    await dan.tags.add(nodeTag.id);
    expect(await dan.tags.has(redisTag)).toBe(true);
    expect((await dan.tags.list()).map((t) => t.label)).toEqual(['redis', 'node']);
    await dan.tags.remove(nodeTag);
    expect(await dan.tags.count()).toBe(1);
    await redisTag.remove();
    expect(await dan.tags.count()).toBe(0);
    await expect(dan.tags.add('12345')).rejects.toBeInstanceOf(RelationError);
    await dan.remove();
    await nodeTag.remove();
  });

  it('tenants: identical ids and unique values never mix, and drop removes exactly the tenant', async () => {
    const A = RelTag.scope('acme');
    const B = RelTag.scope('beta');
    const a = await A.create({ label: 'same' });
    const b = await B.create({ label: 'same' });
    expect(a.id).toBe('1');
    expect(b.id).toBe('1');
    expect((await A.findOneBy({ label: 'same' }))?.id).toBe('1');
    expect(await A.count()).toBe(1);
    expect(a).toBeInstanceOf(RelTag);
    const before = await keysUnder(redis.raw, redis.prefix);
    expect(await A.drop()).toBeGreaterThan(0);
    const after = await keysUnder(redis.raw, redis.prefix);
    expect(after.some((key) => key.includes('{acme/blog}'))).toBe(false);
    expect(after.filter((key) => key.includes('{beta/blog}'))).toEqual(before.filter((key) => key.includes('{beta/blog}')));
    expect(await B.count()).toBe(1);
    await expect(RelTag.drop()).rejects.toThrow(/scope\(tenant\)/);
  });
});

@Model()
class RelBadParent extends BaseEntity {
  @Attr() name?: string;
  // @ts-expect-error an inverse naming no @BelongsTo of RelBadChild (the types refuse it too)
  @HasMany(() => RelBadChild, { inverse: 'nothing' }) children!: HasMany<RelBadChild>;
}

@Model()
class RelBadChild extends BaseEntity {
  @BelongsTo(() => RelBadParent) parent!: BelongsTo<RelBadParent>;
}

describe('relation definitions', () => {
  it('are checked on first use, naming the relation', () => {
    expect(() => RelBadParent.build({ name: 'x' })).toThrow(/RelBadParent.children: inverse "nothing" must be a @BelongsTo/);
  });
});
