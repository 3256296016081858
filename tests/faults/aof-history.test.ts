import { FaultWorld } from '../support/fault-workers/fault-harness';
import { FzPost, FzUser } from '../support/fault-workers/fault-models';
import { aofStepsNaming, readAofSteps } from '../support/fault-workers/aof-history';

/**
 * The fault suite's own diagnosis: when a round finds a violation, the summary lists the steps of Redis's
 * append-only file that name the objects involved, so a rare failure in CI shows how they got there. Every
 * scenario's Redis keeps an AOF: the restart scenario's own (fsynced always, in a dir that outlives restarts),
 * or one the harness adds. Checked here by breaking an object by hand (its hash deleted behind the library's back).
 */
describe('fault suite: the AOF history of a violation', () => {
  it.each([
    ['the AOF the harness adds', [] as string[], false],
    ['the restart scenario AOF', ['--appendonly', 'yes', '--appendfsync', 'always'], true],
  ])('names the writes to the objects a violation is about, a script call as one step (%s)', async (_, serverArgs, persistent) => {
    const world = new FaultWorld(1);
    try {
      await world.start(serverArgs, persistent);
      const user = await FzUser.create({ w: '0', name: 'ann' });
      const post = await FzPost.create({ w: '0', authorId: user.id, rank: 3, title: 'first', color: 'red' });
      const key = `${world.prefix}:{fz}:FzPost:obj:${post.id}`;
      expect(await world.raw.exists(key)).toBe(1);
      await world.raw.del(key);

      expect(await world.checkRound('broken by hand')).toBeGreaterThan(0);
      expect(world.histories[0]).toBe(`broken by hand: the AOF's last 2 steps naming FzPost:${post.id}:`);
      // the create: one script, its writes in one MULTI ... EXEC block, the hash and its index entries together
      expect(world.histories[1]).toMatch(new RegExp(`HSET ${escape(key)} .*\\| ZADD .*:FzPost:all`));
      expect(world.histories[1]).toContain(`SADD ${world.prefix}:{fz}:FzPost:idx:w:0 ${post.id}`);
      // the hand-made DEL, a step of its own
      expect(world.histories[2]).toBe(`  DEL ${key}`);
      expect(world.histories).toHaveLength(3);

      const dataDir = world.aofDir;
      expect(readAofSteps(dataDir).length).toBeGreaterThanOrEqual(4); // the board, the user, the post, the DEL
      expect(aofStepsNaming(dataDir, [{ model: 'FzPost', id: 'no-such-id' }])).toEqual([]);
      // the post names the user only in keys of FzPost: the user's one step is its create
      expect(aofStepsNaming(dataDir, [{ model: 'FzUser', id: user.id }])).toHaveLength(1);
    } finally {
      await world.close();
    }
  });
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
