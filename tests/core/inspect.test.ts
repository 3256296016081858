import { format, inspect } from 'util';
import { Attr, BaseEntity, DynamicAttrs, Index, Model, RemovedEntityError } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * util.inspect, and so console.log, shows an entity as its class, its state (new, persisted or removed), its id
 * and its attributes, rather than the fields of the instance.
 */

@Model()
class InspPost extends BaseEntity {
  @Attr() @Index() title?: string;
  @Attr() views = 0;
  @Attr() publishedAt?: Date;
  @DynamicAttrs() extra: Record<string, string | number | boolean> = {};
}

/** No @Model: inspect still shows it, as its fields. */
class InspNoModel extends BaseEntity {
  title = 'plain';
}

useTestRedis();

const oneLine = (value: unknown) => inspect(value, { breakLength: Infinity });

describe('util.inspect of an entity', () => {
  it('shows a new instance without an id, and its attributes that are set', () => {
    const post = InspPost.build({ title: 'Hello' });
    expect(oneLine(post)).toBe(`InspPost (new) { title: 'Hello', views: 0, extra: {} }`);
  });

  it('shows a persisted one with its id, as console.log prints it', async () => {
    const post = await InspPost.create({ title: 'Hello', publishedAt: new Date(0), extra: { lang: 'en' } });
    const shown = `InspPost (persisted) { id: '${post.id}', title: 'Hello', views: 0, publishedAt: 1970-01-01T00:00:00.000Z, extra: { lang: 'en' } }`;
    expect(oneLine(post)).toBe(shown);
    expect(format('%O', post).replace(/\s+/g, ' ')).toBe(shown);
    expect(oneLine(await InspPost.findOrFail(post.id))).toBe(shown);
  });

  it('shows a removed one with the id it had; another instance of the object cannot know it is gone', async () => {
    const post = await InspPost.create({ title: 'Gone' });
    const id = post.id;
    await post.remove();
    expect(post.id).toBe(id); // kept, as ActiveRecord keeps it
    expect(oneLine(post)).toBe(`InspPost (removed) { id: '${id}', title: 'Gone', views: 0, extra: {} }`);

    const other = await InspPost.create({ title: 'Gone too' });
    const otherId = other.id;
    const loaded = await InspPost.findOrFail(otherId);
    await InspPost.removeMany([otherId]);
    expect(oneLine(other)).toMatch(/^InspPost \(persisted\)/); // another instance of the object: it cannot know
    await other.remove(); // the object is gone already: the instance is left unsaved, as after a removal
    expect(oneLine(loaded)).toMatch(/^InspPost \(persisted\)/);
    expect(oneLine(other)).toBe(`InspPost (removed) { id: '${otherId}', title: 'Gone too', views: 0, extra: {} }`);
  });

  it('shows a removed instance as removed after a save is refused', async () => {
    const post = await InspPost.create({ title: 'Again' });
    await post.remove();
    await expect(post.save()).rejects.toThrow(RemovedEntityError);
    expect(oneLine(post)).toBe(`InspPost (removed) { id: '${post.id}', title: 'Again', views: 0, extra: {} }`);
  });

  it('names the tenant of a scoped model', async () => {
    const post = await InspPost.scope('acme').create({ title: 'Scoped' });
    expect(oneLine(post)).toBe(`InspPost (persisted, tenant acme) { id: '${post.id}', title: 'Scoped', views: 0, extra: {} }`);
  });

  it('follows the depth and the colors of the call', async () => {
    const post = await InspPost.create({ title: 'Deep', extra: { lang: 'en' } });
    expect(inspect({ list: [post] }, { depth: 1 })).toBe(`{ list: [ [InspPost (persisted)] ] }`);
    expect(inspect(post, { depth: 0 })).toBe(`InspPost (persisted) { id: '${post.id}', title: 'Deep', views: 0, extra: [Object] }`);
    expect(oneLine({ post })).toBe(`{ post: InspPost (persisted) { id: '${post.id}', title: 'Deep', views: 0, extra: { lang: 'en' } } }`);
    expect(inspect(post, { colors: true })).toContain(`\u001b[32m'Deep'\u001b[39m`);
  });

  it('never throws: a class without @Model, and an object no constructor made, show their fields', () => {
    expect(oneLine(new InspNoModel())).toBe(`InspNoModel { title: 'plain' }`);
    expect(oneLine(Object.create(InspPost.prototype))).toBe('InspPost {}');
    expect(() => inspect(InspPost.prototype)).not.toThrow();
  });

  it('leaves toJSON as it was', async () => {
    const post = await InspPost.create({ title: 'Json' });
    expect(post.toJSON()).toEqual({ id: post.id, title: 'Json', views: 0, extra: {} });
    expect(InspPost.build({ title: 'New' }).toJSON()).toEqual({ id: undefined, title: 'New', views: 0, extra: {} });
  });
});
