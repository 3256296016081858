import { inspect } from 'util';
import { StaleObjectError, UniqueConstraintError } from 'redis-record';
import { descriptorOf } from '../../../src/model/model-registry';
import { useTestRedis } from '../test-redis';
import type * as LegacyBlog from './legacy-blog-models';

/** The blog's model classes: the legacy ones' types, which the standard ones (the same text) have too. */
export type BlogModels = Pick<typeof LegacyBlog, 'Author' | 'Post' | 'Tag' | 'Note' | 'Pinned'>;

/**
 * The same tests for the blog written in either decorator form (legacy-blog-models.ts, and
 * tests/decorators-standard/blog-models.ts): one model definition, one behaviour, whichever form compiled it.
 */
export function describeBlog(form: string, blog: BlogModels, names: Record<keyof BlogModels, string>): void {
  const { Author, Post, Tag, Note, Pinned } = blog;
  const redis = useTestRedis();

  describe(`a blog written with ${form}`, () => {
    it('has the same attributes, indexes, relations and hooks in either form', () => {
      const post = descriptorOf(Post);
      expect(post.name).toBe(names.Post);
      expect(post.attributes.map((a) => [a.property, a.type, a.role])).toEqual([
        ['createdAt', 'date', undefined],
        ['title', 'string', undefined],
        ['slug', 'string', undefined],
        ['rank', 'number', undefined],
        ['views', 'number', 'counter'],
        ['version', 'number', 'version'],
        ['authorId', 'string', undefined],
      ]);
      expect(post.indexes.map((i) => [i.kind, i.attribute.property])).toEqual([
        ['set', 'title'],
        ['score', 'rank'],
        ['set', 'authorId'],
      ]);
      expect(post.relations.map((r) => [r.kind, r.property])).toEqual([
        ['belongsTo', 'author'],
        ['manyToMany', 'tags'],
      ]);
      expect(['beforeCreate', 'beforeSave', 'afterLoad'].map((kind) => post.hookMethods(kind as never))).toEqual([
        ['stampCreated'],
        ['makeSlug'],
        ['countLoad'],
      ]);
      expect(descriptorOf(Author).indexes.map((i) => [i.kind, i.attribute.property, i.caseInsensitive])).toEqual([
        ['unique', 'email', true],
      ]);
    });

    it('creates and finds, with the hooks of the class and of its base class', async () => {
      const post = await Post.create({ title: 'Hello World', rank: 3 });
      expect(post.slug).toBe('hello-world');
      expect(post.createdAt).toEqual(new Date(1_000));
      const stored = await redis.raw.hGetAll(`${redis.prefix}:{${names.Post}}:obj:${post.id}`);
      expect(stored).toMatchObject({ title: 'Hello World', slug: 'hello-world', rank: '3', views: '0', createdAt: '1000' });
      const found = await Post.findOrFail(post.id);
      expect(found.toJSON()).toEqual(post.toJSON());
      expect(found.loads).toBe(1);
      expect(await Post.find('404')).toBeNull();
    });

    it('queries by index, with ranges and order', async () => {
      for (const [title, rank] of [
        ['q1', 10],
        ['q2', 20],
        ['q3', 30],
      ] as const)
        await Post.create({ title, rank });
      expect((await Post.findBy({ title: 'q2' })).map((p) => p.rank)).toEqual([20]);
      const ranked = await Post.findBy({ rank: { gte: 20 } }, { orderBy: { rank: 'desc' } });
      expect(ranked.map((p) => p.title)).toEqual(['q3', 'q2']);
      expect(await Post.count({ rank: { lt: 20, gte: 10 } })).toBe(1);
    });

    it('keeps unique values unique', async () => {
      await Author.create({ name: 'Ann', email: 'ann@example.com' });
      await expect(Author.create({ name: 'Other', email: 'ANN@example.com' })).rejects.toBeInstanceOf(UniqueConstraintError);
      await Tag.create({ label: 'redis' });
      await expect(Tag.create({ label: 'redis' })).rejects.toBeInstanceOf(UniqueConstraintError);
      expect(await Author.count()).toBe(1);
    });

    it('relates objects: belongs-to, has-many with its cascade, many-to-many', async () => {
      const bob = await Author.create({ name: 'Bob', email: 'bob@example.com' });
      const draft = Post.build({ title: 'First' });
      draft.author.set(bob);
      const first = await draft.save();
      const second = await bob.posts.create({ title: 'Second' });
      expect(second.authorId).toBe(bob.id);
      expect((await bob.posts.findBy()).map((p) => p.title).sort()).toEqual(['First', 'Second']);
      expect((await (await Post.findOrFail(first.id)).author.load())?.name).toBe('Bob');

      const node = await Tag.create({ label: 'node' });
      await first.tags.add(node);
      expect(await node.posts.has(first)).toBe(true);
      expect((await first.tags.list()).map((t) => t.label)).toEqual(['node']);

      await bob.remove();
      expect(await Post.exists(first.id)).toBe(false);
      expect(await Post.exists(second.id)).toBe(false);
      expect(await node.posts.count()).toBe(0);
    });

    it('increments counters and checks versions', async () => {
      const post = await Post.create({ title: 'Counted' });
      expect(await post.increment('views', 2)).toBe(2);
      expect(await post.increment('views')).toBe(3);
      post.title = 'Counted again';
      await post.save(); // a save writes the counter on create only
      expect((await Post.findOrFail(post.id)).views).toBe(3);

      const mine = await Post.findOrFail(post.id);
      const theirs = await Post.findOrFail(post.id);
      mine.title = 'mine';
      await mine.save();
      theirs.title = 'theirs';
      await expect(theirs.save()).rejects.toBeInstanceOf(StaleObjectError);
      expect((await Post.findOrFail(post.id)).title).toBe('mine');
    });

    it('stores a model extending a model with the attributes of both', async () => {
      const pinned = await Pinned.create({ text: 'read me', pinned: true });
      const note = await Note.create({ text: 'read me' });
      expect((await Pinned.findOrFail(pinned.id)).toJSON()).toEqual({
        id: pinned.id,
        createdAt: new Date(1_000),
        text: 'read me',
        pinned: true,
      });
      expect((await Note.findBy({ text: 'read me' })).map((n) => n.id)).toEqual([note.id]);
    });

    it('shows its state and attributes to util.inspect', async () => {
      const post = Post.build({ title: 'Shown', rank: 1 });
      expect(inspect(post)).toBe(`Post (new) { title: 'Shown', rank: 1, views: 0 }`);
      await post.save();
      expect(inspect(post, { breakLength: Infinity })).toBe(
        `Post (persisted) { id: '${post.id}', createdAt: 1970-01-01T00:00:01.000Z, title: 'Shown', slug: 'shown', rank: 1, views: 0, version: 1 }`,
      );
    });
  });
}
