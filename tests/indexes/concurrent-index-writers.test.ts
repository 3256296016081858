import { expectIndexesConsistent } from '../support/index-consistency';
import { CHURN_LANES, ChurnItem } from '../support/index-workers/worker-models';
import { useTestRedis } from '../support/test-redis';
import { WorkerProcess } from '../support/worker-processes/spawn-worker';
import { useWorkerProcesses } from '../support/worker-processes/use-workers';

/**
 * 8 processes change the indexed attributes of one shared set of objects at random, at the same time, a set
 * number of rounds each: plain, sortable, scoped (and their scope attributes) and unique ones, with stale copies
 * and occasional removes. Afterwards every index agrees exactly with the objects (invariants 3 and 4).
 */

const redis = useTestRedis();
const WORKERS = 8;
const OBJECTS = 40;
/** Rounds per lane of each worker: each a load and a save, or a remove and a create. */
const ROUNDS = 30;

describe('8 concurrent writers changing indexed attributes', () => {
  const indexWorkers = useWorkerProcesses(redis, 'index', 'tests/support/index-workers/index-worker.ts');
  const workers: WorkerProcess[] = [];

  it('leave every index and unique entry agreeing with the objects', async () => {
    const ids: string[] = [];
    for (let i = 0; i < OBJECTS; i++) {
      const item = await ChurnItem.create({
        n: i,
        color: 'red',
        owner: `o${i % 4}`,
        at: new Date(i * 1000),
        title: `t${i}`,
        slug: 's',
        rank: i % 5,
      });
      ids.push(item.id);
    }
    await expectIndexesConsistent(ChurnItem, redis.raw, redis.prefix);

    for (let i = 0; i < WORKERS; i++) {
      workers.push(indexWorkers.start({ WORKER_MODE: 'churn', WORKER_IDS: ids.join(','), WORKER_OPS: String(ROUNDS) }));
    }
    await Promise.all(workers.map((worker) => worker.ready));
    for (const worker of workers) worker.go();
    const codes = await Promise.all(workers.map((worker) => worker.finished));
    const reports = workers.map((worker) => worker.lines);
    expect({ codes, reports: reports.filter((lines) => lines.length !== 1 || !lines[0].startsWith('{')) }).toEqual({
      codes: codes.map(() => 0),
      reports: [],
    });
    const totals = { saves: 0, unique: 0, missing: 0, removes: 0, creates: 0 };
    for (const [line] of reports)
      for (const [name, count] of Object.entries(JSON.parse(line) as typeof totals)) totals[name as keyof typeof totals] += count;
    process.stdout.write(`concurrent index writers: ${JSON.stringify(totals)}\n`);
    // every round ended one way: saved, removed (and replaced), refused on a unique value, or its object gone
    expect(totals.saves + totals.removes + totals.unique + totals.missing).toBe(WORKERS * CHURN_LANES * ROUNDS);
    expect(totals.creates).toBe(totals.removes);
    expect(totals.saves).toBeGreaterThan(0);
    expect(totals.unique).toBeGreaterThan(0); // unique values really were contended

    const report = await expectIndexesConsistent(ChurnItem, redis.raw, redis.prefix);
    expect(report.objects).toBeGreaterThan(0);
    expect(report.indexKeys).toBeGreaterThan(10);
    // and the queries answer from those indexes
    const all = await ChurnItem.findBy();
    expect(await ChurnItem.count({ color: 'red' })).toBe(all.filter((item) => item.color === 'red').length);
    expect(await ChurnItem.count({ owner: 'o1', at: { gte: new Date(0) } })).toBe(
      all.filter((item) => item.owner === 'o1' && item.at !== undefined && item.at.getTime() >= 0).length,
    );
  }, 180_000);
});
