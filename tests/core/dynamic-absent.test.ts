import { Attr, BaseEntity, DynamicAttrs, Model } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * null and undefined mean absent for dynamic attributes as for every attribute (docs/models.md): a key holding
 * one is removed on save, and a bag that is null or undefined removes every key the bag held. A `~` field
 * another program wrote (one redis-record would not) stays.
 */

@Model()
class DynAbsent extends BaseEntity {
  @Attr() title?: string;
  @DynamicAttrs() extra?: Record<string, string | number | boolean | null | undefined> | null = {};
}

const redis = useTestRedis();
const hashOf = (id: string) => redis.raw.hGetAll(`${redis.prefix}:{DynAbsent}:obj:${id}`);

it('a key holding null or undefined is removed on save, and a null bag removes every key', async () => {
  const made = await DynAbsent.create({ title: 't', extra: { a: 'x', b: 2, c: true, skipped: null } });
  expect(
    Object.keys(await hashOf(made.id))
      .filter((field) => field.startsWith('~'))
      .sort(),
  ).toEqual(['~a', '~b', '~c']);
  const loaded = await DynAbsent.findOrFail(made.id);
  loaded.extra = { ...loaded.extra, a: null, b: undefined };
  await loaded.save();
  expect(Object.keys(await hashOf(made.id)).filter((field) => field.startsWith('~'))).toEqual(['~c']);
  // another program's field under the prefix: not redis-record's, so left as it is
  await redis.raw.hSet(`${redis.prefix}:{DynAbsent}:obj:${made.id}`, '~other', 'untagged');
  const again = await DynAbsent.findOrFail(made.id);
  expect(again.extra).toEqual({ c: true });
  again.extra = null;
  await again.save();
  const hash = await hashOf(made.id);
  expect(Object.keys(hash).filter((field) => field.startsWith('~'))).toEqual(['~other']);
  expect(hash.title).toBe('t');
  expect((await DynAbsent.findOrFail(made.id)).extra).toEqual({});
});
