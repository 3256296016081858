import { between, FaultWorld, sleep } from '../support/fault-workers/fault-harness';

/**
 * A private redis-server with AOF fsynced on every write (`--appendonly yes --appendfsync always`, its own
 * data dir) is killed with SIGKILL in the middle of the workload and started again on the same port. The
 * workers' clients reconnect by themselves; a write that fails meanwhile is reported as failed (the worker
 * reads back what is stored once Redis answers again), never as acknowledged. Before each start the AOF's
 * tail is mended with redis-check-aof --fix, as Redis 7.0 needs (fix-aof-tail.ts). After each restart every
 * invariant holds and every acknowledged write survived.
 */

/** Restarts: a set number, so that a loaded machine runs the same test, only slower. */
const RESTARTS = 3;
const AOF = ['--appendonly', 'yes', '--appendfsync', 'always'];

describe('Redis killed and restarted under load', () => {
  const world = new FaultWorld(4);
  afterAll(() => world.close());

  it('keeps every invariant and every acknowledged write', async () => {
    const started = Date.now();
    await world.start(AOF, true);
    world.prepareNext = false; // a standby worker would have to survive the restart before it even starts
    let restarts = 0;
    let downMs = 0;
    while (restarts < RESTARTS) {
      await world.startWorkers();
      await sleep(between(150, 500));
      downMs += await world.killAndRestartRedis();
      restarts++;
      // Long enough for the workers to reconnect, read back their failed write and go on.
      await sleep(between(400, 800));
      await world.killWorkersAtRandom(100);
      await world.checkRound(`restart ${restarts}`);
    }
    const objects = await world.objectCount();
    process.stdout.write(
      world.summary(
        'redis restarts',
        started,
        `${restarts} SIGKILL + restart of redis-server (AOF always, down ${downMs} ms in all; ${world.aofTailsCut} AOF tails cut inside a write, mended with redis-check-aof), ${objects} objects at the end`,
      ),
    );
    expect(world.violations.slice(0, 20)).toEqual([]);
    expect(world.counts.acknowledged).toBeGreaterThan(0);
  }, 240_000);
});
