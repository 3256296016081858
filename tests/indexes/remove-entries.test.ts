import { Attr, BaseEntity, Index, Model, SortableString, Unique } from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * remove() and removeMany of a model with index entries and nothing else beside its objects: every kind of
 * entry goes with the object, found from the stored values: case-folded and numeric unique values, numeric
 * scopes with -0, absent values and absent scopes, lex members with NUL bytes. A unique value another object
 * holds stays.
 */

@Model()
class RemovedEntryItem extends BaseEntity {
  @Attr() @Index() tag?: string;
  @Attr() @Unique({ caseInsensitive: true }) email?: string;
  @Attr() @Unique() code?: number;
  @Attr() @Index() at?: Date;
  @Attr() @Index({ scope: 'level' }) points?: number;
  @Attr() @Index({ sortable: true, scope: 'level' }) name?: SortableString;
  @Attr() @Index({ sortable: true }) title?: SortableString;
  @Attr() level?: number;
}

const redis = useTestRedis();
const base = () => `${redis.prefix}:{RemovedEntryItem}`;
const modelKeys = async () => (await keysUnder(redis.raw, redis.prefix)).filter((key) => key.startsWith(base())).sort();

/** Values of every kind an entry can be made from: -0, empty strings, NUL bytes, absent values and scopes. */
const INPUTS: Array<Partial<RemovedEntryItem>> = [
  { tag: 'a', email: 'Ann@Example.com', code: -0, at: new Date(0), points: 3, name: 'n\0x', title: '', level: -0 },
  { tag: '', email: 'bob@example.com', code: 7, at: new Date(-1), points: -0, name: '', title: 'b\0', level: 0 },
  { email: 'CAROL@example.com', code: 1.5, points: 2, name: 'c', level: 2.5 },
  { tag: 'd{x}:y', title: 'd' },
  {},
];

async function createAll(inputs: ReadonlyArray<Partial<RemovedEntryItem>>): Promise<RemovedEntryItem[]> {
  const items = [];
  for (const input of inputs) items.push(await RemovedEntryItem.create(input));
  await expectIndexesConsistent(RemovedEntryItem, redis.raw, redis.prefix);
  return items;
}

describe('remove() of an indexed model', () => {
  it('takes every entry of every kind with the object, whatever its values', async () => {
    const items = await createAll(INPUTS);
    for (const [i, item] of items.entries()) {
      const id = item.id!;
      await item.remove();
      expect(await RemovedEntryItem.find(id)).toBeNull();
      if (i < items.length - 1) await expectIndexesConsistent(RemovedEntryItem, redis.raw, redis.prefix);
    }
    expect(await modelKeys()).toEqual([`${base()}:seq`]);
  });
});

describe('removeMany of an indexed model', () => {
  it('takes every entry of every kind with the objects of one call; a missing id is reported, the others stay', async () => {
    const items = await createAll(INPUTS);
    const kept = await RemovedEntryItem.create({
      tag: 'a',
      email: 'kept@example.com',
      code: 99,
      points: 3,
      name: 'k',
      title: 'k',
      level: -0,
    });
    const ids = items.map((item) => item.id!);
    const result = await RemovedEntryItem.removeMany([...ids, '424242']);
    expect(result.removed).toEqual(ids);
    expect(result.missing).toEqual(['424242']);
    expect(await RemovedEntryItem.findMany(ids)).toEqual(ids.map(() => null));
    expect(await RemovedEntryItem.findOneBy({ email: 'KEPT@example.com' })).toMatchObject({ id: kept.id });
    await expectIndexesConsistent(RemovedEntryItem, redis.raw, redis.prefix);
    await kept.remove();
    expect(await modelKeys()).toEqual([`${base()}:seq`]);
  });
});

describe.each([
  ['remove()', (item: RemovedEntryItem) => item.remove()],
  ['removeMany', async (item: RemovedEntryItem) => expect((await RemovedEntryItem.removeMany([item.id!])).removed).toEqual([item.id])],
])('%s', (_, removeOne) => {
  it('releases a unique value only when it names the removed object', async () => {
    const owner = await RemovedEntryItem.create({ email: 'owner@example.com', code: 42 });
    const other = await RemovedEntryItem.create({ email: 'other@example.com', code: 43 });
    // the other object's stored values are made to collide with the owner's (as after a hand edit); its removal
    // must leave the owner's unique entries alone. (The entries of the values it held before the edit are not
    // found from the stored ones: check() reports such leftovers, and they are cleared by hand here.)
    const otherId = other.id;
    await redis.raw.hSet(`${base()}:obj:${otherId}`, { email: 'owner@example.com', '#ci:email': 'owner@example.com', code: '42' });
    await removeOne(other);
    expect(await redis.raw.hGetAll(`${base()}:uniq:email`)).toEqual({ 'owner@example.com': owner.id, 'other@example.com': otherId });
    expect(await redis.raw.hGetAll(`${base()}:uniq:code`)).toEqual({ '42': owner.id, '43': otherId });
    expect(await RemovedEntryItem.findOneBy({ email: 'OWNER@example.com' })).toMatchObject({ id: owner.id });
    await redis.raw.hDel(`${base()}:uniq:email`, 'other@example.com');
    await redis.raw.hDel(`${base()}:uniq:code`, '43');
    await owner.remove();
    expect(await modelKeys()).toEqual([`${base()}:seq`]);
  });
});
