import { Attr, BaseEntity, Index, Model, Unique } from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * Invariant 4 for a `@Unique({ caseInsensitive: true })` attribute whose stored value and `#ci:` field are out of
 * step (one of them edited by hand): check() judges which unique value an object holds from its stored value,
 * folded as the library folds it, never from the `#ci:` field; one repair() leaves the unique hash and the
 * `#ci:` field as a save of the object writes them, and check() is clean after it.
 */

@Model()
class CfPost extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr() @Unique({ caseInsensitive: true }) slug?: string;
}

@Model({ ttl: 3600 })
class CfNote extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr() @Unique({ caseInsensitive: true }) slug?: string;
}

const redis = useTestRedis();
const MODELS = [CfPost, CfNote] as const;
type CfModel = (typeof MODELS)[number];
const base = (model: CfModel) => `${redis.prefix}:{${model.name}}`;
const uniq = (model: CfModel) => redis.raw.hGetAll(`${base(model)}:uniq:slug`);
const folded = (model: CfModel, id: string) => redis.raw.hGet(`${base(model)}:obj:${id}`, '#ci:slug');
const kinds = (violations: ReadonlyArray<{ kind: string }>) => violations.map((v) => v.kind).sort();

beforeEach(async () => {
  for (const model of MODELS) {
    const keys = await keysUnder(redis.raw, base(model));
    if (keys.length > 0) await redis.raw.del(keys);
  }
});

async function expectClean(model: CfModel): Promise<void> {
  expect((await model.check()).violations).toEqual([]);
  await expectIndexesConsistent(model, redis.raw, redis.prefix);
}

describe.each(MODELS.map((model) => [model.name, model] as const))('%s', (_name, model) => {
  it('a value changed by hand: the first check reports its stale mapping, and one repair removes it', async () => {
    const post = await model.create({ topic: 't', slug: 'One' });
    await redis.raw.hSet(`${base(model)}:obj:${post.id}`, 'slug', 'Uno'); // #ci:slug and uniq:slug left as they were

    const found = await model.check();
    expect(found.violations).toContainEqual(expect.objectContaining({ kind: 'uniqueOwner', key: `${base(model)}:uniq:slug`, id: post.id }));
    expect(found.violations).toContainEqual(expect.objectContaining({ kind: 'missingEntry', key: `${base(model)}:uniq:slug` }));

    const repaired = await model.repair();
    expect(repaired.left).toEqual([]);
    expect(await uniq(model)).toEqual({ uno: post.id });
    expect(await folded(model, post.id!)).toBe('uno');
    await expectClean(model);

    const other = await model.create({ slug: 'ONE' });
    expect(await uniq(model)).toEqual({ uno: post.id, one: other.id });
  });

  it('a value folded beyond ASCII: the stale mapping is found, and the new one is the value as the library folds it', async () => {
    const post = await model.create({ slug: 'ecole' });
    await redis.raw.hSet(`${base(model)}:obj:${post.id}`, 'slug', 'ÉCOLE');

    expect(kinds((await model.check()).violations)).toContain('uniqueOwner');
    expect((await model.repair()).left).toEqual([]);
    expect(await uniq(model)).toEqual({ école: post.id });
    expect(await folded(model, post.id!)).toBe('école');
    await expectClean(model);
    await model.create({ slug: 'Ecole' });
  });

  it('a value deleted by hand: the mapping of the #ci: field left behind is stale', async () => {
    const post = await model.create({ topic: 't', slug: 'One' });
    await redis.raw.hDel(`${base(model)}:obj:${post.id}`, 'slug');

    expect(kinds((await model.check()).violations)).toContain('uniqueOwner');
    expect((await model.repair()).left).toEqual([]);
    expect(await uniq(model)).toEqual({});
    expect(await folded(model, post.id!)).toBeNull();
    await expectClean(model);
    await model.create({ slug: 'one' });
  });

  it('a #ci: field changed by hand: the value the object holds is not reported as owned by one that does not hold it', async () => {
    const post = await model.create({ topic: 't', slug: 'One' });
    await redis.raw.hSet(`${base(model)}:obj:${post.id}`, '#ci:slug', 'zzz');

    const found = await model.check();
    expect(found.violations.filter((v) => v.kind !== 'memoMismatch')).toEqual([
      expect.objectContaining({ kind: 'wrongEntry', id: post.id, key: `${base(model)}:obj:${post.id}` }),
    ]);

    expect((await model.repair()).left).toEqual([]);
    expect(await uniq(model)).toEqual({ one: post.id });
    expect(await folded(model, post.id!)).toBe('one');
    await expectClean(model);
  });
});

// a model without memos: a duplicate value in one that keeps them is also its object's memoMismatch, left by repair
describe('a value two objects hold', () => {
  const model = CfPost;

  it('a value changed by hand to one another object holds: the stale mapping is removed, the value left to its owner', async () => {
    const post = await model.create({ slug: 'One' });
    const holder = await model.create({ slug: 'UNO' });
    await redis.raw.hSet(`${base(model)}:obj:${post.id}`, 'slug', 'Uno');

    const found = await model.check();
    expect(found.violations).toContainEqual(expect.objectContaining({ kind: 'uniqueOwner', key: `${base(model)}:uniq:slug`, id: post.id }));
    expect(found.violations).toContainEqual(expect.objectContaining({ kind: 'duplicateUnique', id: post.id }));

    const repaired = await model.repair();
    expect(kinds(repaired.left)).toEqual(['duplicateUnique']);
    expect(await uniq(model)).toEqual({ uno: holder.id });
    expect(await folded(model, post.id!)).toBe('uno');
    expect(kinds((await model.check()).violations)).toEqual(['duplicateUnique']);

    await model.create({ slug: 'ONE' });
    await redis.raw.hSet(`${base(model)}:obj:${post.id}`, 'slug', 'Dos');
    await model.repair();
    await expectClean(model);
  });
});

@Model({ shards: 2 })
class CfShardedPost extends BaseEntity {
  @Attr() @Unique({ caseInsensitive: true }) slug?: string;
}

/** The key of a sharded object's hash, in whichever shard holds it. */
async function shardedObjectKey(id: string): Promise<string> {
  const keys = await keysUnder(redis.raw, redis.prefix);
  return keys.find((key) => key.startsWith(`${redis.prefix}:{CfShardedPost#`) && key.endsWith(`}:obj:${id}`))!;
}

// the claims across shards (docs/cluster.md) are judged from the stored value too
describe('a sharded model', () => {
  it('a value changed by hand: the first check reports the new value unclaimed, and one repair claims it', async () => {
    const post = await CfShardedPost.create({ slug: 'Alpha' });
    await redis.raw.hSet(await shardedObjectKey(post.id!), 'slug', 'Beta');
    const found = await CfShardedPost.check();
    expect(kinds(found.violations)).toEqual(['missingEntry', 'unclaimedUnique', 'uniqueOwner', 'wrongEntry']);
    expect((await CfShardedPost.repair()).left).toEqual([]);
    expect((await CfShardedPost.check()).violations).toEqual([]);
  });

  it('a #ci: field changed by hand: the value the object holds is not reported unclaimed', async () => {
    const post = await CfShardedPost.create({ slug: 'Gamma' });
    await redis.raw.hSet(await shardedObjectKey(post.id!), '#ci:slug', 'zzz');
    expect(kinds((await CfShardedPost.check()).violations)).toEqual(['wrongEntry']);
    expect((await CfShardedPost.repair()).left).toEqual([]);
    expect((await CfShardedPost.check()).violations).toEqual([]);
  });
});
