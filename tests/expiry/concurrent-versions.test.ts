import { expectIndexesConsistent } from '../support/index-consistency';
import { reportOf } from '../support/worker-processes/spawn-worker';
import { useExpiryWorkers } from '../support/expiry-workers/use-workers';
import { Ledger } from '../support/expiry-workers/worker-models';
import { useTestRedis } from '../support/test-redis';

/**
 * Eight processes load, change and save the same @Version object (total + 1, their token appended), with a
 * pause between load and save so that they collide, and retry on StaleObjectError: the version check and
 * the write are one script, so no successful save is lost and no token appears twice.
 */

const redis = useTestRedis();
const workers = useExpiryWorkers(redis);
const PROCESSES = 8;
const OPS = 25;

describe('read-modify-write of a @Version object by 8 processes', () => {
  it('loses no update: the total is the number of successful saves', async () => {
    const ledger = await Ledger.create({});
    const run = await workers.run('version', PROCESSES, (i) => ({ id: ledger.id, ops: OPS, token: `w${i}` }));
    const reports = run.map((worker) => reportOf<{ ok: number; stale: number }>(worker));
    const succeeded = reports.reduce((sum, r) => sum + r.ok, 0);
    const stale = reports.reduce((sum, r) => sum + r.stale, 0);
    expect(succeeded).toBe(PROCESSES * OPS);
    expect(stale).toBeGreaterThan(0); // they did collide

    const stored = await Ledger.findOrFail(ledger.id);
    expect(stored.total).toBe(succeeded);
    expect(stored.version).toBe(1 + succeeded);
    const tokens = stored.tokens.split(';').filter(Boolean);
    expect(tokens).toHaveLength(succeeded);
    const expected = Array.from({ length: PROCESSES }, (_, w) => Array.from({ length: OPS }, (_, k) => `w${w}.${k}`)).flat();
    expect([...tokens].sort()).toEqual(expected.sort());
    // each process's own tokens appear in the order it saved them
    for (let w = 0; w < PROCESSES; w++) {
      expect(tokens.filter((t) => t.startsWith(`w${w}.`))).toEqual(Array.from({ length: OPS }, (_, k) => `w${w}.${k}`));
    }
    await expectIndexesConsistent(Ledger, redis.raw, redis.prefix);
  });
});
