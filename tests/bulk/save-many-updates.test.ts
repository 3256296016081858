import { Attr, BaseEntity, Index, Model, Unique } from '../../src';
import { UPDATE_CHUNKS_IN_FLIGHT } from '../../src/entity/bulk/bulk-options';
import { scripts as luaScripts } from '../../src/store/scripts';
import { expectIndexesConsistent, expectShardsConsistent } from '../support/index-consistency';
import { useTestRedis } from '../support/test-redis';
import { useScriptCalls } from '../support/script-calls';

/**
 * saveMany's changes to loaded objects: one update-many.lua call per chunk (per shard of a sharded model), a
 * bounded number under way at once, all of them before the call's new objects; each object applied as save()
 * applies it, in the given order.
 */

@Model()
class BulkMember extends BaseEntity {
  @Attr() @Unique() handle!: string;
  @Attr() @Index() team!: string;
  @Attr() note?: string;
}

@Model({ shards: 4 })
class ShardedMember extends BaseEntity {
  @Attr() @Index() team!: string;
  @Attr() note?: string;
}

@Model({ ttl: 3600 })
class ExpiringMember extends BaseEntity {
  @Attr() @Unique() handle!: string;
  @Attr() @Index() team!: string;
  @Attr() note?: string;
}

const redis = useTestRedis();

const calls = useScriptCalls(redis);
const sent = calls.sent;

test('changes to 1,200 loaded objects go as one update-many.lua call per chunk of 250, a few under way at once', async () => {
  const created = await BulkMember.saveMany(Array.from({ length: 1200 }, (_, i) => ({ handle: `m${i}`, team: `t${i % 5}` })));
  expect(created.ok).toBe(true);
  const members = created.saved;
  members.forEach((member, i) => (member.team = `u${i % 7}`));
  calls.reset();
  const updated = await BulkMember.saveMany(members);
  expect(updated.ok).toBe(true);
  expect(updated.saved).toHaveLength(1200);
  expect(sent(luaScripts.updateMany())).toBe(5);
  expect(sent(luaScripts.save()) + sent(luaScripts.updateFields())).toBe(0);
  expect(calls.most).toBeGreaterThan(1);
  expect(calls.most).toBeLessThanOrEqual(UPDATE_CHUNKS_IN_FLIGHT);
  expect(calls.running).toBe(0);
  expect(await BulkMember.count({ team: 'u3' })).toBe(members.filter((_, i) => i % 7 === 3).length);
  expect((await BulkMember.find(members[1000].id))?.team).toBe('u6');
  await expectIndexesConsistent(BulkMember, redis.raw, redis.prefix);
});

test('chunkSize applies to changes; an instance with nothing changed sends nothing', async () => {
  const { saved } = await BulkMember.saveMany(Array.from({ length: 9 }, (_, i) => ({ handle: `c${i}`, team: 'c' })));
  saved.forEach((member, i) => {
    if (i % 4 !== 0) member.note = `n${i}`; // 0, 4 and 8 stay as they are
  });
  calls.reset();
  const result = await BulkMember.saveMany(saved, { chunkSize: 3 });
  expect(result.ok).toBe(true);
  expect(result.saved).toEqual(saved);
  // 6 changed instances, in chunks of 3 (an unchanged one takes no place in its chunk's call)
  expect(sent(luaScripts.updateMany())).toBe(3);
  const stored = await BulkMember.findMany(saved.map((member) => member.id));
  expect(stored.map((member) => member?.note)).toEqual(saved.map((_, i) => (i % 4 === 0 ? undefined : `n${i}`)));
});

test('in one chunk, a refused object writes nothing and stops none of the others', async () => {
  const { saved } = await BulkMember.saveMany([
    { handle: 'r-taken-by-other', team: 'r' },
    { handle: 'r-removed', team: 'r' },
    { handle: 'r-fine', team: 'r' },
    { handle: 'r-holder', team: 'r' },
  ]);
  const [wantsTaken, removed, fine] = saved;
  await (await BulkMember.findOrFail(removed.id)).remove(); // by another client, say
  wantsTaken.handle = 'r-holder';
  wantsTaken.team = 'moved';
  removed.note = 'late';
  fine.team = 'moved';
  fine.note = 'kept';
  calls.reset();
  const result = await BulkMember.saveMany([wantsTaken, removed, fine]);
  expect(sent(luaScripts.updateMany())).toBe(1);
  expect(result.saved).toEqual([fine]);
  expect(result.failed.map(({ index, error, written }) => [index, error.name, written])).toEqual([
    [0, 'UniqueConstraintError', false],
    [1, 'NotFoundError', false],
  ]);
  const stored = await BulkMember.findOrFail(wantsTaken.id);
  expect([stored.handle, stored.team]).toEqual(['r-taken-by-other', 'r']);
  expect(await BulkMember.find(removed.id)).toBeNull();
  expect(await redis.raw.exists(`${redis.prefix}:{BulkMember}:obj:${removed.id}`)).toBe(0);
  expect(await BulkMember.findOrFail(fine.id)).toMatchObject({ team: 'moved', note: 'kept' });
  expect((await BulkMember.findIds({ team: 'moved' })).sort()).toEqual([fine.id]);
  await expectIndexesConsistent(BulkMember, redis.raw, redis.prefix);
});

test('an object found expired in a chunk is swept with its entries and fails with NotFoundError', async () => {
  const { saved } = await ExpiringMember.saveMany([
    { handle: 'e-gone', team: 'e' },
    { handle: 'e-stays', team: 'e' },
  ]);
  const [gone, stays] = saved;
  // its hash vanishes as an expired one's does; its `all`, memo and index entries wait for a sweep
  await redis.raw.del(`${redis.prefix}:{ExpiringMember}:obj:${gone.id}`);
  gone.note = 'late'; // a change no index depends on
  stays.note = 'fine';
  const result = await ExpiringMember.saveMany([gone, stays]);
  expect(result.saved).toEqual([stays]);
  expect(result.failed.map(({ index, error }) => [index, error.name])).toEqual([[0, 'NotFoundError']]);
  expect(await redis.raw.zScore(`${redis.prefix}:{ExpiringMember}:all`, gone.id)).toBeNull();
  expect(await redis.raw.exists(`${redis.prefix}:{ExpiringMember}:memo:${gone.id}`)).toBe(0);
  expect(await ExpiringMember.findIds({ team: 'e' })).toEqual([stays.id]);
  expect((await ExpiringMember.findOrFail(stays.id)).note).toBe('fine');
  // the update kept the object's time to live
  expect(await redis.raw.pTTL(`${redis.prefix}:{ExpiringMember}:obj:${stays.id}`)).toBeGreaterThan(0);
  await expectIndexesConsistent(ExpiringMember, redis.raw, redis.prefix);
});

test('within a chunk, unique values change hands as save() called in the same order would', async () => {
  const { saved } = await BulkMember.saveMany([
    { handle: 'x', team: 's' },
    { handle: 'y', team: 's' },
    { handle: 'p', team: 's' },
    { handle: 'q', team: 's' },
  ]);
  const [x, y, p, q] = saved;
  // x frees 'x' before y takes it: both stored
  x.handle = 'z';
  y.handle = 'x';
  // p and q swap: each finds its new value still held by the other
  p.handle = 'q';
  q.handle = 'p';
  calls.reset();
  const result = await BulkMember.saveMany([x, y, p, q]);
  expect(sent(luaScripts.updateMany())).toBe(1);
  expect(result.saved).toEqual([x, y]);
  expect(result.failed.map(({ index, error }) => [index, error.name])).toEqual([
    [2, 'UniqueConstraintError'],
    [3, 'UniqueConstraintError'],
  ]);
  expect((await BulkMember.findOneBy({ handle: 'x' }))?.id).toBe(y.id);
  expect((await BulkMember.findOneBy({ handle: 'z' }))?.id).toBe(x.id);
  expect((await BulkMember.findOneBy({ handle: 'p' }))?.id).toBe(p.id);
  expect((await BulkMember.findOneBy({ handle: 'q' }))?.id).toBe(q.id);
  await expectIndexesConsistent(BulkMember, redis.raw, redis.prefix);
});

test('changes to a sharded model go as one call per shard of each chunk', async () => {
  const { saved } = await ShardedMember.saveMany(Array.from({ length: 40 }, (_, i) => ({ team: `a${i % 3}` })));
  const shards = new Set(saved.map((member) => (Number(member.id) - 1) % 4));
  expect(shards.size).toBe(4);
  saved.forEach((member, i) => {
    member.team = `b${i % 2}`;
    member.note = `s${i}`;
  });
  calls.reset();
  const result = await ShardedMember.saveMany(saved, { chunkSize: 20 });
  expect(result.ok).toBe(true);
  // two chunks of 20, each spread over the four shards
  expect(sent(luaScripts.updateMany())).toBe(8);
  expect(await ShardedMember.count({ team: 'b1' })).toBe(20);
  const stored = await ShardedMember.findMany(saved.map((member) => member.id));
  expect(stored.map((member) => member?.note)).toEqual(saved.map((_, i) => `s${i}`));
  await expectShardsConsistent(ShardedMember, redis.raw, redis.prefix);
});

test('a change frees a unique value that a new object of the same call takes', async () => {
  const [old] = (await BulkMember.saveMany([{ handle: 'keeper', team: 'a' }])).saved;
  const loaded = (await BulkMember.find(old.id))!;
  loaded.handle = 'renamed';
  const result = await BulkMember.saveMany([BulkMember.build({ handle: 'keeper', team: 'b' }), loaded]);
  expect(result.failed).toEqual([]);
  expect((await BulkMember.findOneBy({ handle: 'keeper' }))?.team).toBe('b');
  expect((await BulkMember.findOneBy({ handle: 'renamed' }))?.id).toBe(old.id);
  await expectIndexesConsistent(BulkMember, redis.raw, redis.prefix);
});
