import { ArgumentError, Attr, BaseEntity, Index, Model, NotFoundError, ValidationError, Version } from '../../src';
import { modelKeyDump } from '../support/key-dump';
import { useTestRedis } from '../support/test-redis';
import { reportOf } from '../support/worker-processes/spawn-worker';
import { useWriteWorkers } from '../support/write-workers/use-workers';
import { TagBag } from '../support/write-workers/worker-models';

/**
 * Model.update's array operators: push, pull and addToSet applied to the stored JSON array inside the update
 * script, with the tag entries of an `each` index moved in the same step. Every refusal writes nothing; writers
 * racing on one array lose no update.
 */

@Model()
class AoPost extends BaseEntity {
  @Attr() title!: string;
  @Attr({ type: 'json' }) @Index({ each: true }) tags?: string[];
  @Attr({ type: 'json' }) scores?: number[];
  @Attr({ type: 'json' }) meta?: Record<string, unknown>;
  @Attr({ type: 'json' }) items?: unknown[];
  @Version() version?: number;
}

const redis = useTestRedis();
const workers = useWriteWorkers(redis);

const keysOf = (model: string) => modelKeyDump(redis.raw, redis.prefix, model);

/** check() finds nothing, and the tag sets of AoPost are exactly element -> ids `entries`. */
async function expectEntries(entries: Record<string, string[]>): Promise<void> {
  expect((await AoPost.check()).violations).toEqual([]);
  const stem = `${redis.prefix}:{AoPost}:idx:tags:`;
  const found: Record<string, string[]> = {};
  for (const key of await redis.raw.keys(`${stem}*`)) found[key.slice(stem.length)] = (await redis.raw.sMembers(key)).sort();
  expect(found).toEqual(entries);
}

describe('Model.update with array operators', () => {
  beforeEach(async () => {
    await AoPost.removeMany(await AoPost.findIds({}));
  });

  it('push appends one value or several, moves the tag entries and answers with the object as stored', async () => {
    const post = await AoPost.create({ title: 't', tags: ['a'] });
    const pushed = await AoPost.update(post.id, { tags: { push: 'b' } });
    expect(pushed.tags).toEqual(['a', 'b']);
    expect(pushed.version).toBe(2);
    const again = await AoPost.update(post.id, { title: 'u', tags: { push: ['c', 'a'] } });
    expect(again).toMatchObject({ title: 'u', tags: ['a', 'b', 'c', 'a'], version: 3 });
    expect((await AoPost.find(post.id))?.tags).toEqual(['a', 'b', 'c', 'a']);
    expect(await AoPost.findIds({ tags: { hasAll: ['a', 'b', 'c'] } })).toEqual([post.id]);
    expect(await AoPost.findIds({ tags: { has: 'c' } })).toEqual([post.id]);
    await expectEntries({ a: [post.id], b: [post.id], c: [post.id] });
  });

  it('push onto an absent attribute makes the array', async () => {
    const post = await AoPost.create({ title: 't' });
    expect((await AoPost.update(post.id, { tags: { push: ['x', 'y'] } })).tags).toEqual(['x', 'y']);
    expect(await AoPost.findIds({ tags: { has: 'y' } })).toEqual([post.id]);
    await expectEntries({ x: [post.id], y: [post.id] });
  });

  it('addToSet adds only the values the array does not hold, each once', async () => {
    const post = await AoPost.create({ title: 't', tags: ['a', 'b'] });
    const added = await AoPost.update(post.id, { tags: { addToSet: ['b', 'c', 'c', 'd'] } });
    expect(added.tags).toEqual(['a', 'b', 'c', 'd']);
    expect((await AoPost.update(post.id, { tags: { addToSet: 'a' } })).tags).toEqual(['a', 'b', 'c', 'd']);
    expect(await AoPost.findIds({ tags: { hasAll: ['a', 'b', 'c', 'd'] } })).toEqual([post.id]);
    await expectEntries({ a: [post.id], b: [post.id], c: [post.id], d: [post.id] });
  });

  it('pull removes every element equal to a value, and the entries of the elements gone', async () => {
    const post = await AoPost.create({ title: 't', tags: ['a', 'b', 'a', 'c'] });
    const other = await AoPost.create({ title: 'o', tags: ['a'] });
    expect((await AoPost.update(post.id, { tags: { pull: 'a' } })).tags).toEqual(['b', 'c']);
    expect(await AoPost.findIds({ tags: { has: 'a' } })).toEqual([other.id]);
    expect((await AoPost.update(post.id, { tags: { pull: ['b', 'c', 'zz'] } })).tags).toEqual([]);
    expect(await AoPost.findIds({ tags: { hasAny: ['b', 'c'] } })).toEqual([]);
    expect(await AoPost.findIds({ tags: { exists: false } })).toEqual([post.id]);
    await expectEntries({ a: [other.id] });
  });

  it('works on a JSON array without an index, comparing values by their JSON text', async () => {
    const post = await AoPost.create({ title: 't', scores: [1, 2.5, 1e21] });
    expect((await AoPost.update(post.id, { scores: { push: [3, 1e21] } })).scores).toEqual([1, 2.5, 1e21, 3, 1e21]);
    expect((await AoPost.update(post.id, { scores: { pull: 1e21 } })).scores).toEqual([1, 2.5, 3]);
    expect((await AoPost.update(post.id, { scores: { addToSet: [2.5, 0.1] } })).scores).toEqual([1, 2.5, 3, 0.1]);
    expect((await AoPost.find(post.id))?.scores).toEqual([1, 2.5, 3, 0.1]);
  });

  it('keeps the elements it does not touch byte for byte, whatever their text holds', async () => {
    const items = ['a,b', 'q"]', '\\', '\u2028 é', { k: [1, ']'], s: '}' }, [2, [3]], null, true, 0.1, 0.30000000000000004];
    const post = await AoPost.create({ title: 't', items });
    const field = `${redis.prefix}:{AoPost}:obj:${post.id}`;
    const stored = (await redis.raw.hGet(field, 'items'))!;
    const pushed = await AoPost.update(post.id, { items: { push: [{ n: 'x,]' }] } });
    expect(pushed.items).toEqual([...items, { n: 'x,]' }]);
    expect(await redis.raw.hGet(field, 'items')).toBe(`${stored.slice(0, -1)},{"n":"x,]"}]`);
    const pulled = await AoPost.update(post.id, { items: { pull: [{ k: [1, ']'], s: '}' }, 'q"]', [2, [3]], null, { n: 'x,]' }] } });
    expect(pulled.items).toEqual(['a,b', '\\', '\u2028 é', true, 0.1, 0.30000000000000004]);
    expect((await AoPost.update(post.id, { items: { addToSet: ['a,b', false, 0.1] } })).items).toEqual([
      'a,b',
      '\\',
      '\u2028 é',
      true,
      0.1,
      0.30000000000000004,
      false,
    ]);
  });

  it('refuses a value that does not fit, naming the attribute, and writes nothing', async () => {
    const post = await AoPost.create({ title: 't', tags: ['a'], scores: [1] });
    const before = await keysOf('AoPost');
    const refused = AoPost.update(post.id, { title: 'changed', tags: { push: [1] as unknown as string[] } });
    await expect(refused).rejects.toThrow(ValidationError);
    await expect(refused).rejects.toMatchObject({ errors: [expect.objectContaining({ property: 'tags' })] });
    await expect(AoPost.update(post.id, { scores: { push: NaN } })).rejects.toThrow(ValidationError);
    expect(await keysOf('AoPost')).toEqual(before);
  });

  it('refuses an unknown or second operator and an operator on an attribute that is not JSON', async () => {
    const post = await AoPost.create({ title: 't', tags: ['a'] });
    const before = await keysOf('AoPost');
    const update = AoPost.update.bind(AoPost) as (id: string, input: object) => Promise<unknown>;
    await expect(update(post.id, { tags: { append: 'x' } })).rejects.toThrow(ArgumentError);
    await expect(update(post.id, { tags: { push: 'x', pull: 'a' } })).rejects.toThrow(ArgumentError);
    await expect(update(post.id, { scores: { push: 1, foo: 2 } })).rejects.toThrow(ArgumentError);
    await expect(update(post.id, { title: { push: 'x' } })).rejects.toThrow(/title is not a JSON array attribute/);
    expect(await keysOf('AoPost')).toEqual(before);
  });

  it('refuses a stored value that is not an array, and a missing object, writing nothing', async () => {
    const post = await AoPost.create({ title: 't', meta: { a: 1 } });
    const before = await keysOf('AoPost');
    const refused = AoPost.update(post.id, { title: 'x', meta: { push: 1 } as never });
    await expect(refused).rejects.toThrow(ValidationError);
    await expect(refused).rejects.toThrow(/meta: the stored value is not an array/);
    expect(await keysOf('AoPost')).toEqual(before);
    await expect(AoPost.update('999', { tags: { push: 'a' } })).rejects.toThrow(NotFoundError);
    expect(await keysOf('AoPost')).toEqual(before);
  });
});

describe('array operators from several processes at once', () => {
  const valuesOf = (worker: number, count: number) => Array.from({ length: count }, (_, i) => `w${worker}-${i}`);

  it('loses no push: 4 processes push distinct values onto one array', async () => {
    const bag = await TagBag.create({ name: 'pushed', tags: [] });
    const run = await workers.run('array', 4, (i) => ({ id: bag.id, operator: 'push', values: valuesOf(i, 40), lanes: 4 }));
    expect(run.map((worker) => reportOf<{ calls: number }>(worker).calls)).toEqual([40, 40, 40, 40]);
    const tags = (await TagBag.find(bag.id))!.tags!;
    expect(tags).toHaveLength(160);
    expect([...tags].sort()).toEqual([0, 1, 2, 3].flatMap((i) => valuesOf(i, 40)).sort());
    expect(await TagBag.findIds({ tags: { hasAll: tags } })).toEqual([bag.id]);
    expect((await TagBag.check()).violations).toEqual([]);
  });

  it('addToSet keeps each value once: 4 processes add overlapping values to one array', async () => {
    const bag = await TagBag.create({ name: 'set' });
    const shared = valuesOf(9, 20);
    const run = await workers.run('array', 4, (i) => ({
      id: bag.id,
      operator: 'addToSet',
      values: [...shared, ...valuesOf(i, 20)],
      lanes: 4,
    }));
    expect(run.map((worker) => reportOf<{ calls: number }>(worker).calls)).toEqual([40, 40, 40, 40]);
    const tags = (await TagBag.find(bag.id))!.tags!;
    const expected = [...shared, ...[0, 1, 2, 3].flatMap((i) => valuesOf(i, 20))].sort();
    expect([...tags].sort()).toEqual(expected);
    expect(await TagBag.count({ tags: { hasAll: expected } })).toBe(1);
    expect((await TagBag.check()).violations).toEqual([]);
  });
});
