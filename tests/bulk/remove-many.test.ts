import { commandsFor } from '../../src/redis/commands-for';
import { Attr, BaseEntity, BelongsTo, HasMany, Index, Model, SortableString, Unique } from '../../src';
import { indexedRemovalManyScript, indexedRemovalScript } from '../../src/store/indexed-removal';
import { descriptorOf } from '../../src/model/model-registry';
import { scripts as luaScripts } from '../../src/store/scripts';
import { expectIndexesConsistent, expectShardsConsistent } from '../support/index-consistency';
import { expectRelationsConsistent } from '../support/relation-consistency';
import { keysUnder, useTestRedis } from '../support/test-redis';
import { useScriptCalls } from '../support/script-calls';

/**
 * removeMany of models whose objects have more than a hash: one script call per chunk (per shard of a sharded
 * model) that removes the chunk's objects as remove() removes each, rather than a call per object. Every kind
 * of entry going with its object, whatever its values, is checked with remove()'s in
 * tests/indexes/remove-entries.test.ts.
 */

@Model()
class BulkGoneItem extends BaseEntity {
  @Attr() @Index() tag?: string;
  @Attr() @Unique({ caseInsensitive: true }) email?: string;
  @Attr() @Unique() code?: number;
  @Attr() @Index() at?: Date;
  @Attr() @Index({ sortable: true }) title?: SortableString;
}

@Model({ shards: 4 })
class ShardedGoneItem extends BaseEntity {
  @Attr() @Index() team!: string;
}

@Model({ ttl: 3600 })
class ExpiringGoneItem extends BaseEntity {
  @Attr() @Index() tag?: string;
  @Attr() @Unique() code?: number;
}

@Model({ expirable: true })
class MaybeExpiringGoneItem extends BaseEntity {
  @Attr() @Index() tag?: string;
  @Attr() @Index({ sortable: true }) title?: SortableString;
}

@Model({ group: 'bulkgone' })
class GoneOwner extends BaseEntity {
  @Attr() name!: string;
  @HasMany(() => GoneKeeper, { inverse: 'owner' }) keepers!: HasMany<GoneKeeper>; // onDelete 'restrict'
  @HasMany(() => GoneNote, { inverse: 'owner', onDelete: 'cascade' }) notes!: HasMany<GoneNote>;
}

@Model({ group: 'bulkgone' })
class GoneKeeper extends BaseEntity {
  @BelongsTo(() => GoneOwner) owner!: BelongsTo<GoneOwner>;
  ownerId?: string;
}

@Model({ group: 'bulkgone' })
class GoneNote extends BaseEntity {
  @BelongsTo(() => GoneOwner) owner!: BelongsTo<GoneOwner>;
  ownerId?: string;
  @Attr() @Index() text!: string;
}

const redis = useTestRedis();
const base = () => `${redis.prefix}:{BulkGoneItem}`;
const modelKeys = async () => (await keysUnder(redis.raw, redis.prefix)).filter((key) => key.startsWith(`${base()}:`)).sort();

const calls = useScriptCalls(redis);
const sent = calls.sent;

const indexes = () => descriptorOf(BulkGoneItem).indexes;

test('1,200 objects of an indexed model go as one call per chunk of 500, two under way at once, with every entry', async () => {
  const { saved } = await BulkGoneItem.saveMany(
    Array.from({ length: 1200 }, (_, i) => ({ tag: `t${i % 7}`, email: `User${i}@Example.com`, code: i, at: new Date(i), title: `x${i}` })),
  );
  expect(saved).toHaveLength(1200);
  calls.reset(); // saveMany's own calls
  const result = await BulkGoneItem.removeMany(saved.map((item) => item.id));
  expect(result.ok).toBe(true);
  expect(result.removed).toEqual(saved.map((item) => item.id));
  expect(sent(indexedRemovalManyScript(indexes()))).toBe(3);
  expect(sent(indexedRemovalScript(indexes()))).toBe(0);
  expect(calls.most).toBeLessThanOrEqual(2);
  expect(await BulkGoneItem.count()).toBe(0);
  expect(await modelKeys()).toEqual([`${base()}:seq`]);
});

test('one call larger than a Lua slice (2,500 ids), an id given twice reported once by the script', async () => {
  const { saved } = await BulkGoneItem.saveMany(
    Array.from({ length: 2500 }, (_, i) => ({ tag: `t${i % 3}`, code: 10_000 + i, at: new Date(i) })),
  );
  const ids = saved.map((item) => item.id!);
  const result = await BulkGoneItem.removeMany(ids, { chunkSize: 2500 });
  expect(result.removed).toHaveLength(2500);
  expect(sent(indexedRemovalManyScript(indexes()))).toBe(1);
  expect(await modelKeys()).toEqual([`${base()}:seq`]);

  // removeMany drops repeated ids itself; the script also counts an id given twice as removed once
  const again = await BulkGoneItem.saveMany([
    { tag: 'r', code: 1 },
    { tag: 'r', code: 2 },
  ]);
  const [a, b] = again.saved.map((item) => item.id!);
  const script = indexedRemovalManyScript(indexes());
  const reply = await script.run(commandsFor(redis.raw), [`${base()}:all`, base()], [a, b, a, '999']);
  expect(reply).toEqual([1, 1, 0, 0]);
  expect(await modelKeys()).toEqual([`${base()}:seq`]);
});

test('a sharded model: one call per shard of each chunk, each shard consistent', async () => {
  const { saved } = await ShardedGoneItem.saveMany(Array.from({ length: 40 }, (_, i) => ({ team: `a${i % 3}` })));
  const gone = saved.slice(0, 30).map((item) => item.id!);
  const result = await ShardedGoneItem.removeMany(gone, { chunkSize: 15 });
  expect(result.removed).toEqual(gone);
  const script = indexedRemovalManyScript(descriptorOf(ShardedGoneItem).indexes);
  // 2 chunks, each spread over the 4 shards (sequence ids go to the shards in turn)
  expect(sent(script)).toBe(8);
  expect(await ShardedGoneItem.count()).toBe(10);
  await expectShardsConsistent(ShardedGoneItem, redis.raw, redis.prefix);
});

test("a model with relations: one remove-many.lua call per chunk; a 'restrict' refuses its object only", async () => {
  const { saved: owners } = await GoneOwner.saveMany(Array.from({ length: 6 }, (_, i) => ({ name: `o${i}` })));
  await GoneKeeper.create({ ownerId: owners[2].id! });
  for (const owner of owners)
    await GoneNote.saveMany([
      { ownerId: owner.id!, text: `${owner.name} 1` },
      { ownerId: owner.id!, text: `${owner.name} 2` },
    ]);
  const result = await GoneOwner.removeMany(
    owners.map((owner) => owner.id!),
    { chunkSize: 3 },
  );
  expect(sent(luaScripts.removeMany())).toBe(2);
  expect(sent(luaScripts.remove())).toBe(0);
  expect(result.removed).toEqual(owners.filter((_, i) => i !== 2).map((owner) => owner.id));
  expect(result.failed.map((failure) => [failure.index, failure.error.name])).toEqual([[2, 'RelationError']]);
  // the refused owner keeps its notes; the others' went with them (cascade)
  expect(await GoneOwner.count()).toBe(1);
  expect((await GoneNote.findBy({ text: 'o2 1' })).length).toBe(1);
  expect(await GoneNote.count()).toBe(2);
  await expectRelationsConsistent([GoneOwner, GoneKeeper, GoneNote], redis.raw, redis.prefix);
});

test('a TTL model: one remove-many.lua call per chunk takes each object with its memo, an expired one too', async () => {
  const { saved } = await ExpiringGoneItem.saveMany(Array.from({ length: 30 }, (_, i) => ({ tag: `g${i % 4}`, code: i })));
  const ids = saved.map((item) => item.id!);
  const gone = ids[3];
  // its hash vanishes as an expired one's does; its `all`, `exp`, memo and index entries wait for a sweep
  await redis.raw.del(`${redis.prefix}:{ExpiringGoneItem}:obj:${gone}`);
  const kept = ids.slice(20);
  calls.reset();
  const result = await ExpiringGoneItem.removeMany([...ids.slice(0, 20), '5555'], { chunkSize: 10 });
  expect(sent(luaScripts.removeMany())).toBe(3);
  expect(sent(luaScripts.remove())).toBe(0);
  // the expired object is missing, as documented (it was invisible already), and what was left of it is gone
  expect(result.removed).toEqual(ids.slice(0, 20).filter((id) => id !== gone));
  expect(result.missing).toEqual([gone, '5555']);
  const base = `${redis.prefix}:{ExpiringGoneItem}`;
  const left = (await keysUnder(redis.raw, redis.prefix)).filter((key) => key.startsWith(`${base}:`) && /:(obj|memo):/.test(key));
  expect(left.sort()).toEqual(kept.flatMap((id) => [`${base}:memo:${id}`, `${base}:obj:${id}`]).sort());
  expect((await redis.raw.zRange(`${base}:exp`, 0, -1)).sort()).toEqual([...kept].sort());
  expect(await ExpiringGoneItem.findOneBy({ code: 3 })).toBeNull();
  await expectIndexesConsistent(ExpiringGoneItem, redis.raw, redis.prefix);
});

test('an expirable model: entries from the memo of an object given a TTL, from the stored values of the others', async () => {
  const { saved } = await MaybeExpiringGoneItem.saveMany([
    { tag: 'm', title: 'with a ttl' },
    { tag: 'm', title: 'without' },
    { tag: 'n', title: 'kept' },
  ]);
  const [timed, plain, kept] = saved;
  await timed.expire(600);
  const result = await MaybeExpiringGoneItem.removeMany([timed.id!, plain.id!, timed.id!]);
  expect(result.removed).toEqual([timed.id, plain.id]);
  expect(sent(luaScripts.removeMany())).toBe(1);
  expect(await MaybeExpiringGoneItem.findIds({ tag: 'm' })).toEqual([]);
  expect(await MaybeExpiringGoneItem.findIds({ tag: 'n' })).toEqual([kept.id]);
  const base = `${redis.prefix}:{MaybeExpiringGoneItem}`;
  expect(await redis.raw.exists(`${base}:memo:${timed.id}`)).toBe(0);
  expect(await redis.raw.zCard(`${base}:exp`)).toBe(0);
  await expectIndexesConsistent(MaybeExpiringGoneItem, redis.raw, redis.prefix);
});
