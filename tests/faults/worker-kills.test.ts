import { between, FaultWorld, sleep } from '../support/fault-workers/fault-harness';

/**
 * Four worker processes write at random (creates, updates, removes, every kind of index, unique values drawn
 * from shared pools, belongs-to re-pointing, memberships, cascade / nullify / restrict removals, counters) and
 * are killed with SIGKILL, each at its own random instant, round after round. After each round every invariant
 * holds and every acknowledged write is stored; of each worker's write in flight, all or nothing is.
 */

/** Rounds of kills: a set number, so that a loaded machine runs the same test, only slower. */
const ROUNDS = 6;

describe('workers killed at random instants', () => {
  const world = new FaultWorld(4);
  afterAll(() => world.close());

  it('leave every invariant true and lose no acknowledged write', async () => {
    const started = Date.now();
    await world.start();
    let rounds = 0;
    while (rounds < ROUNDS) {
      rounds++;
      await world.startWorkers();
      await sleep(between(150, 600));
      await world.killWorkersAtRandom(200);
      await world.checkRound(`round ${rounds}`);
    }
    const objects = await world.objectCount();
    process.stdout.write(
      world.summary('worker kills', started, `${rounds} rounds, ${rounds * world.workerCount} kills, ${objects} objects at the end`),
    );
    expect(world.violations.slice(0, 20)).toEqual([]);
    expect(world.counts.acknowledged).toBeGreaterThan(0);
  }, 240_000);
});
