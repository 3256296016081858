import { Attr, BaseEntity, Model } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * undefined and null both mean "absent": an absent attribute has no hash field at all, and an object loaded
 * without the field has undefined, never the class default.
 */

@Model()
class AbsentArticle extends BaseEntity {
  @Attr() title!: string;
  @Attr() views = 0;
  @Attr() draft = true;
  @Attr() publishedAt?: Date;
  @Attr({ type: 'json' }) tags?: string[] = ['default'];
}

const redis = useTestRedis();

function stored(id: string): Promise<Record<string, string>> {
  return redis.raw.hGetAll(`${redis.prefix}:{AbsentArticle}:obj:${id}`);
}

/** The attribute fields only: the hash also holds internal fields, whose names start with '#'. */
async function storedAttributes(id: string): Promise<Record<string, string>> {
  return Object.fromEntries(Object.entries(await stored(id)).filter(([field]) => !field.startsWith('#')));
}

describe('creating with absent attributes', () => {
  it('writes no field for an attribute that is undefined', async () => {
    const article = await AbsentArticle.create({ title: 'a' });
    expect(await storedAttributes(article.id)).toEqual({ title: 'a', views: '0', draft: 'true', tags: '["default"]' });
  });

  it('treats undefined and null given to create as absent, overriding the class default', async () => {
    const article = await AbsentArticle.create({ title: undefined, views: null, tags: undefined });
    expect(await storedAttributes(article.id)).toEqual({ draft: 'true' });
    expect(article.views).toBeUndefined();
  });

  it('stores an object whose attributes are all absent, and finds it', async () => {
    const article = await AbsentArticle.create({ views: null, draft: null, tags: null });
    expect(await storedAttributes(article.id)).toEqual({});
    const loaded = await AbsentArticle.find(article.id);
    expect(loaded).not.toBeNull();
    expect(loaded!.toJSON()).toEqual({ id: article.id });
  });

  it('builds null as undefined on the instance', () => {
    const article = AbsentArticle.build({ title: null });
    expect(article.title).toBeUndefined();
  });
});

describe('clearing an attribute of a stored object', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
  ])('setting it to %s and saving removes the hash field', async (_label, empty) => {
    const article = await AbsentArticle.create({ title: 't', publishedAt: new Date(1) });
    expect(await stored(article.id)).toHaveProperty('publishedAt', '1');

    (article as { publishedAt?: Date | null }).publishedAt = empty;
    await article.save();

    expect(await stored(article.id)).not.toHaveProperty('publishedAt');
    expect(await storedAttributes(article.id)).toEqual({ title: 't', views: '0', draft: 'true', tags: '["default"]' });
  });

  it('can clear several attributes and set others in one save', async () => {
    const article = await AbsentArticle.create({ title: 't', views: 3 });
    (article as { title?: string }).title = undefined;
    article.views = 4;
    article.tags = undefined;
    await article.save();
    expect(await storedAttributes(article.id)).toEqual({ views: '4', draft: 'true' });
  });

  it('can set a cleared attribute again', async () => {
    const article = await AbsentArticle.create({ title: 't' });
    (article as { title?: string }).title = undefined;
    await article.save();
    article.title = 'back';
    await article.save();
    expect((await stored(article.id)).title).toBe('back');
  });
});

describe('loading an object with absent attributes', () => {
  it('gives undefined, not the class default', async () => {
    const article = await AbsentArticle.create({ title: 't', views: null, draft: null, tags: null });
    const loaded = await AbsentArticle.findOrFail(article.id);
    expect(loaded.views).toBeUndefined();
    expect(loaded.draft).toBeUndefined();
    expect(loaded.tags).toBeUndefined();
    expect(loaded.publishedAt).toBeUndefined();
    expect(loaded.title).toBe('t');
  });

  it('gives undefined after a field was removed by an update', async () => {
    const article = await AbsentArticle.create({ title: 't', views: 9 });
    (article as { views?: number }).views = undefined;
    await article.save();
    expect((await AbsentArticle.findOrFail(article.id)).views).toBeUndefined();
  });

  it('sets an attribute to undefined on reload when its field was removed meanwhile', async () => {
    const article = await AbsentArticle.create({ title: 't', views: 9 });
    await redis.raw.hDel(`${redis.prefix}:{AbsentArticle}:obj:${article.id}`, 'views');
    await article.reload();
    expect(article.views).toBeUndefined();
  });

  it('leaves absent attributes out of toJSON', async () => {
    const article = await AbsentArticle.create({ title: 't', views: null, tags: null });
    const loaded = await AbsentArticle.findOrFail(article.id);
    expect(loaded.toJSON()).toEqual({ id: article.id, title: 't', draft: true });
    expect(Object.keys(loaded.toJSON()).sort()).toEqual(['draft', 'id', 'title']);
  });
});
