import { Attr, BaseEntity, Index, Model, Unique } from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { useTestRedis } from '../support/test-redis';
import { useWatchedConnection } from '../support/watched-connection';

/**
 * saveMany's changes to loaded objects: one save.lua call each, pipelined, a bounded number under way at
 * once, and all of them before the call's new objects.
 */

@Model()
class BulkMember extends BaseEntity {
  @Attr() @Unique() handle!: string;
  @Attr() @Index() team!: string;
}

const redis = useTestRedis();

/** The scripts under way on the connection right now, and the most seen at once. */
const scripts = { running: 0, most: 0 };

// redis-record's connection goes through a Proxy that counts the script calls awaiting their reply
useWatchedConnection(redis, 'sendCommand', (sendCommand) => (...args) => {
  const reply = sendCommand(...args) as Promise<unknown>;
  if (String((args[0] as string[])[0]).toUpperCase() !== 'EVALSHA') return reply;
  scripts.most = Math.max(scripts.most, ++scripts.running);
  return reply.finally(() => scripts.running--);
});

beforeEach(() => {
  scripts.running = 0;
  scripts.most = 0;
});

test('changes to 1,200 loaded objects go at most 250 under way at once, and every one is stored', async () => {
  const created = await BulkMember.saveMany(Array.from({ length: 1200 }, (_, i) => ({ handle: `m${i}`, team: `t${i % 5}` })));
  expect(created.ok).toBe(true);
  const members = created.saved;
  members.forEach((member, i) => (member.team = `u${i % 7}`));
  scripts.most = 0;
  const updated = await BulkMember.saveMany(members);
  expect(updated.ok).toBe(true);
  expect(updated.saved).toHaveLength(1200);
  expect(scripts.most).toBeGreaterThan(1);
  expect(scripts.most).toBeLessThanOrEqual(250);
  expect(scripts.running).toBe(0);
  expect(await BulkMember.count({ team: 'u3' })).toBe(members.filter((_, i) => i % 7 === 3).length);
  expect((await BulkMember.find(members[1000].id))?.team).toBe('u6');
  await expectIndexesConsistent(BulkMember, redis.raw, redis.prefix);
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
