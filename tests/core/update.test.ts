import { Attr, BaseEntity, Model, NotFoundError } from '../../src';
import { useCountingConnection } from './support/counting-client';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * An update writes only the attributes that changed since the instance was loaded or saved, so writers of
 * different attributes do not overwrite each other; it never revives an object someone else deleted.
 */

@Model()
class UpdateDoc extends BaseEntity {
  @Attr() title!: string;
  @Attr() views = 0;
  @Attr() editedAt?: Date;
  @Attr({ type: 'json' }) meta?: Record<string, unknown>;
}

const redis = useTestRedis();
const counting = useCountingConnection(redis);

beforeAll(async () => {
  const warm = await UpdateDoc.create({ title: 'warm-up' }); // caches every script on the server
  warm.views = 1;
  await warm.save();
  await warm.reload();
  await warm.remove();
});

beforeEach(() => counting.reset());

function objectKey(id: string): string {
  return `${redis.prefix}:{UpdateDoc}:obj:${id}`;
}

describe('writing only what changed', () => {
  it('two instances of one object changing different attributes both survive', async () => {
    const created = await UpdateDoc.create({ title: 'original', views: 1 });
    const first = await UpdateDoc.findOrFail(created.id);
    const second = await UpdateDoc.findOrFail(created.id);

    first.title = 'renamed by first';
    second.views = 99;
    await first.save();
    await second.save();

    const stored = await UpdateDoc.findOrFail(created.id);
    expect(stored.title).toBe('renamed by first');
    expect(stored.views).toBe(99);
  });

  it('a save with no change sends nothing', async () => {
    const doc = await UpdateDoc.create({ title: 'still', meta: { a: [1] }, editedAt: new Date(5) });
    counting.reset();
    await doc.save();
    const loaded = await UpdateDoc.findOrFail(doc.id);
    counting.reset();
    await loaded.save();
    expect(counting.calls).toEqual([]);
  });

  it('values equal to the stored ones are no change: a new equal Date, an equal json object, a value set back', async () => {
    const doc = await UpdateDoc.create({ title: 'same', editedAt: new Date(5), meta: { a: 1 } });
    counting.reset();
    doc.editedAt = new Date(5);
    doc.meta = { a: 1 };
    doc.title = 'changed';
    doc.title = 'same';
    await doc.save();
    expect(counting.calls).toEqual([]);
  });

  it('a change is one round trip', async () => {
    const doc = await UpdateDoc.create({ title: 'one trip' });
    counting.reset();
    doc.views = 5;
    doc.title = 'still one trip';
    await doc.save();
    expect(counting.calls).toEqual(['fCall']);
  });

  it('changing a json value in place is seen as a change', async () => {
    const doc = await UpdateDoc.create({ title: 't', meta: { list: [1] } });
    (doc.meta!.list as number[]).push(2);
    await doc.save();
    expect((await UpdateDoc.findOrFail(doc.id)).meta).toEqual({ list: [1, 2] });
  });

  it('a field another writer changed is not overwritten by a save that did not change it', async () => {
    const doc = await UpdateDoc.create({ title: 'mine', views: 1 });
    await redis.raw.hSet(objectKey(doc.id), 'views', '1000');
    doc.title = 'still mine';
    await doc.save();
    expect(await redis.raw.hGetAll(objectKey(doc.id))).toMatchObject({ title: 'still mine', views: '1000' });
  });
});

describe('updating an object someone else deleted', () => {
  it('throws NotFoundError and does not revive it', async () => {
    const doc = await UpdateDoc.create({ title: 'doomed' });
    const other = await UpdateDoc.findOrFail(doc.id);
    await other.remove();

    doc.title = 'too late';
    const error = await doc.save().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ model: 'UpdateDoc', id: doc.id });

    expect(await redis.raw.exists(objectKey(doc.id))).toBe(0);
    expect(await UpdateDoc.exists(doc.id)).toBe(false);
    expect(await UpdateDoc.find(doc.id)).toBeNull();
    expect((await keysUnder(redis.raw, redis.prefix)).filter((key) => key.endsWith(`:obj:${doc.id}`))).toEqual([]);
  });

  it('clearing an attribute of a deleted object does not revive it either', async () => {
    const doc = await UpdateDoc.create({ title: 'doomed', views: 3 });
    await (await UpdateDoc.findOrFail(doc.id)).remove();
    (doc as { views?: number }).views = undefined;
    await expect(doc.save()).rejects.toThrow(NotFoundError);
    expect(await redis.raw.exists(objectKey(doc.id))).toBe(0);
  });
});

describe('reload', () => {
  it('drops unsaved changes and reads what is stored', async () => {
    const doc = await UpdateDoc.create({ title: 'stored', views: 2 });
    doc.title = 'unsaved';
    doc.views = 50;
    await redis.raw.hSet(objectKey(doc.id), 'views', '3');

    await expect(doc.reload()).resolves.toBe(doc);
    expect(doc.title).toBe('stored');
    expect(doc.views).toBe(3);
  });

  it('makes the reloaded state the base of the next update', async () => {
    const doc = await UpdateDoc.create({ title: 'a' });
    await redis.raw.hSet(objectKey(doc.id), 'title', 'b');
    await doc.reload();
    counting.reset();
    await doc.save();
    expect(counting.calls).toEqual([]);
  });

  it('throws NotFoundError when the object is gone', async () => {
    const doc = await UpdateDoc.create({ title: 'gone' });
    await (await UpdateDoc.findOrFail(doc.id)).remove();
    await expect(doc.reload()).rejects.toThrow(NotFoundError);
  });
});

describe('remove', () => {
  it('deletes the object and its entry in `all`', async () => {
    const doc = await UpdateDoc.create({ title: 'bye' });
    const id = doc.id;
    await doc.remove();
    expect(await redis.raw.exists(objectKey(id))).toBe(0);
    expect(await redis.raw.zScore(`${redis.prefix}:{UpdateDoc}:all`, id)).toBeNull();
    expect(await UpdateDoc.find(id)).toBeNull();
  });

  it('of an object already removed elsewhere does not throw', async () => {
    const doc = await UpdateDoc.create({ title: 'twice' });
    const id = doc.id;
    const other = await UpdateDoc.findOrFail(id);
    await doc.remove();
    await expect(other.remove()).resolves.toBeUndefined();
    expect(await UpdateDoc.exists(id)).toBe(false);
  });
});

describe('isPersisted', () => {
  it('is false when built, true once saved or loaded, false after remove', async () => {
    const doc = UpdateDoc.build({ title: 'p' });
    expect(doc.isPersisted()).toBe(false);
    expect(doc.id).toBeUndefined();
    await doc.save();
    expect(doc.isPersisted()).toBe(true);
    expect((await UpdateDoc.findOrFail(doc.id!)).isPersisted()).toBe(true);
    await doc.remove();
    expect(doc.isPersisted()).toBe(false);
  });

  it('stays false when a create fails', async () => {
    const doc = UpdateDoc.build({ title: 'p', views: NaN });
    await expect(doc.save()).rejects.toThrow();
    expect(doc.isPersisted()).toBe(false);
    expect(doc.id).toBeUndefined();
  });
});

describe('toJSON', () => {
  it('is the id and the attributes, with values of their own types', async () => {
    const doc = await UpdateDoc.create({ title: 'json', views: 4, editedAt: new Date(9), meta: { k: 'v' } });
    expect(doc.toJSON()).toEqual({ id: doc.id, title: 'json', views: 4, editedAt: new Date(9), meta: { k: 'v' } });
  });

  it('is what JSON.stringify uses', async () => {
    const doc = await UpdateDoc.create({ title: 'str', views: 1, editedAt: new Date(0) });
    expect(JSON.parse(JSON.stringify(doc))).toEqual({
      id: doc.id,
      title: 'str',
      views: 1,
      editedAt: '1970-01-01T00:00:00.000Z',
    });
  });

  it('has no id before the first save', () => {
    expect(JSON.parse(JSON.stringify(UpdateDoc.build({ title: 'new' })))).toEqual({ title: 'new', views: 0 });
  });
});

describe('several saves of one instance at once', () => {
  it('run one after another: one object is created, with the last values', async () => {
    const before = await UpdateDoc.count();
    const doc = UpdateDoc.build({ title: 'first' });
    const firstSave = doc.save();
    doc.views = 2;
    const secondSave = doc.save();
    await Promise.all([firstSave, secondSave]);
    expect(await UpdateDoc.count()).toBe(before + 1);
    expect((await UpdateDoc.findOrFail(doc.id!)).views).toBe(2);
  });
});
