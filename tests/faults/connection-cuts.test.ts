import { between, FaultWorld, sleep } from '../support/fault-workers/fault-harness';

/**
 * The workers' connections are cut with CLIENT KILL, from the test's own raw client, again and again in the
 * middle of their writes: all normal connections at once (`CLIENT KILL TYPE normal`, which also cuts the
 * test's other client) or one worker's (`CLIENT KILL ID`). A write whose reply is lost is reported as failed
 * and read back. After each round every invariant holds and every acknowledged write is stored.
 */

/** Rounds of cuts: a set number, so that a loaded machine runs the same test, only slower. */
const ROUNDS = 3;
const CUTS_PER_ROUND = 8;

describe('connections cut in the middle of writes', () => {
  const world = new FaultWorld(4);
  afterAll(() => world.close());

  it('keep every invariant and every acknowledged write', async () => {
    const started = Date.now();
    await world.start();
    let rounds = 0;
    let cuts = 0;
    let connectionsCut = 0;
    while (rounds < ROUNDS) {
      rounds++;
      await world.startWorkers();
      for (let i = 0; i < CUTS_PER_ROUND; i++) {
        await sleep(between(20, 120));
        if (i % 2 === 0) {
          connectionsCut += Number(await world.raw.sendCommand(['CLIENT', 'KILL', 'TYPE', 'normal']));
        } else {
          const ids = await world.workerConnectionIds();
          if (ids.length === 0) continue;
          connectionsCut += Number(await world.raw.sendCommand(['CLIENT', 'KILL', 'ID', ids[between(0, ids.length - 1)]]));
        }
        cuts++;
      }
      await sleep(between(200, 400));
      await world.killWorkersAtRandom(100);
      await world.checkRound(`round ${rounds}`);
    }
    const objects = await world.objectCount();
    process.stdout.write(
      world.summary(
        'connection cuts',
        started,
        `${rounds} rounds, ${cuts} CLIENT KILLs (${connectionsCut} connections cut), ${objects} objects at the end`,
      ),
    );
    expect(world.violations.slice(0, 20)).toEqual([]);
    expect(world.counts.failed).toBeGreaterThan(0);
  }, 240_000);
});
