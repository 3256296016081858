import { Attr, BaseEntity, Model, Unique } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * Two objects holding one unique value (written by hand) in a model that keeps memos: the value is the entry of
 * the object its unique hash names, and only its memo records it. check() reports the duplicate, which repair()
 * leaves to the application, and after one repair nothing else: the memo of the object that does not own the
 * value is not a memoMismatch for lacking it.
 */

@Model({ ttl: 3600 })
class DupMemoed extends BaseEntity {
  @Attr() @Unique() slug?: string;
}

const redis = useTestRedis();
const key = (name: string) => `${redis.prefix}:{DupMemoed}:${name}`;

it('a duplicate unique value leaves one violation after repair, the duplicate itself', async () => {
  const owner = await DupMemoed.create({ slug: 'a' });
  const other = await DupMemoed.create({ slug: 'b' });
  await redis.raw.hSet(key(`obj:${other.id}`), 'slug', 'a');
  const first = await DupMemoed.check();
  expect(first.violations.map((violation) => violation.kind).sort()).toEqual(['duplicateUnique', 'memoMismatch', 'uniqueOwner']);
  const repaired = await DupMemoed.repair();
  expect(repaired.left.map((violation) => violation.kind)).toEqual(['duplicateUnique']);
  const again = await DupMemoed.check();
  expect(again.violations.map((violation) => [violation.kind, violation.id])).toEqual([['duplicateUnique', other.id]]);
  expect(await redis.raw.hGetAll(key('uniq:slug'))).toEqual({ a: owner.id });
  expect(await redis.raw.hGetAll(key(`memo:${other.id}`))).toEqual({});
  expect(Object.values(await redis.raw.hGetAll(key(`memo:${owner.id}`)))).toEqual(['a']);
  // a second repair changes nothing and reports the same
  expect((await DupMemoed.repair()).fixed).toEqual([]);
  expect((await DupMemoed.check()).violations.map((violation) => violation.kind)).toEqual(['duplicateUnique']);
});
