import { expectIndexesConsistent } from '../support/index-consistency';
import { reportOf } from '../support/worker-processes/spawn-worker';
import { useExpiryWorkers } from '../support/expiry-workers/use-workers';
import { CAP_KEEP, CapCounter, CapEntry } from '../support/expiry-workers/worker-models';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * Capped models under concurrent writers. Four processes create objects and change their own objects' cap
 * attribute: CapEntry (keeps the highest scores) by load, change, save, raising scores; CapCounter (keeps
 * the lowest points) by increment, lowering them. While they run, a sampler never sees more than `keep`
 * objects. Because each object only ever moves towards the kept end, an evicted object always has `keep`
 * objects ranked before it for good, so at the end the survivors are exactly the first `keep`, in query
 * order, of every object ever acknowledged with its last acknowledged value; and no evicted object leaves
 * a key or an index entry behind.
 */

const redis = useTestRedis();
const workers = useExpiryWorkers(redis);
const PROCESSES = 4;
/** Rounds per process: each a create, a score raised or points lowered (40% creates: many more than kept). */
const ROUNDS = 400;

type Report = { entries: Record<string, number>; counters: Record<string, number>; counts: Record<string, number> };

const base = (model: string) => `${redis.prefix}:{${model}}`;
let reports: Report[] = [];
let samples = 0;
let largest = { entries: 0, counters: 0 };

beforeAll(async () => {
  let running = true;
  const sampler = (async () => {
    while (running) {
      const sizes = await Promise.all([
        redis.raw.zCard(`${base('CapEntry')}:all`),
        redis.raw.zCard(`${base('CapEntry')}:idx:score`),
        redis.raw.zCard(`${base('CapCounter')}:all`),
        redis.raw.zCard(`${base('CapCounter')}:idx:points`),
      ]);
      largest = {
        entries: Math.max(largest.entries, sizes[0], sizes[1]),
        counters: Math.max(largest.counters, sizes[2], sizes[3]),
      };
      samples++;
    }
  })();
  try {
    const run = await workers.run('cap', PROCESSES, (i) => ({ ops: ROUNDS, token: `w${i}` }), 120_000);
    reports = run.map((worker) => reportOf<Report>(worker));
  } finally {
    running = false;
    await sampler;
  }
}, 180_000);

/** The first `keep` of (id, value) pairs in the cap's order: by value, ties by numeric id, desc the exact reverse. */
function firstKept(values: Record<string, number>, order: 'asc' | 'desc'): Array<[string, number]> {
  const sign = order === 'asc' ? 1 : -1;
  return Object.entries(values)
    .sort(([a, x], [b, y]) => sign * (x - y || Number(a) - Number(b)))
    .slice(0, CAP_KEEP);
}

describe('a capped model under 4 concurrent writer processes', () => {
  it('had real contention: many more objects acknowledged than kept', () => {
    const total = (count: string) => reports.reduce((sum, r) => sum + r.counts[count], 0);
    const [created, evicted] = [total('creates'), total('evicted')];
    // every round ended one way: a create, an update, an increment, or its object found evicted
    expect(created + total('updates') + total('increments') + evicted).toBe(PROCESSES * ROUNDS);
    expect(created).toBeGreaterThan(4 * CAP_KEEP);
    expect(evicted).toBeGreaterThan(0);
    expect(samples).toBeGreaterThan(10);
  });

  it('never showed more than `keep` objects to a sampler reading ZCARD while they ran', () => {
    expect(largest.entries).toBeLessThanOrEqual(CAP_KEEP);
    expect(largest.counters).toBeLessThanOrEqual(CAP_KEEP);
  });

  it('keeps exactly the top `keep` scores (desc) of every object ever acknowledged, in query order', async () => {
    const acknowledged = Object.assign({}, ...reports.map((r) => r.entries)) as Record<string, number>;
    const kept = (await CapEntry.findBy({}, { orderBy: { score: 'desc' } })).map((e) => [e.id, e.score]);
    expect(kept).toEqual(firstKept(acknowledged, 'desc'));
    expect(await CapEntry.count()).toBe(CAP_KEEP);
  });

  it('keeps exactly the lowest `keep` counters (asc) of every object ever acknowledged, in query order', async () => {
    const acknowledged = Object.assign({}, ...reports.map((r) => r.counters)) as Record<string, number>;
    const kept = (await CapCounter.findBy({}, { orderBy: { points: 'asc' } })).map((c) => [c.id, c.points]);
    expect(kept).toEqual(firstKept(acknowledged, 'asc'));
    expect(await CapCounter.count()).toBe(CAP_KEEP);
  });

  it('leaves no key and no index or unique entry of an evicted object', async () => {
    for (const model of ['CapEntry', 'CapCounter']) {
      const live = new Set(await redis.raw.zRange(`${base(model)}:all`, 0, -1));
      expect(live.size).toBe(CAP_KEEP);
      const keys = (await keysUnder(redis.raw, redis.prefix)).filter((key) => key.startsWith(`${base(model)}:`));
      const perObject = keys.filter((key) => /:(obj|memo):/.test(key));
      expect(perObject.filter((key) => !live.has(key.slice(key.lastIndexOf(':') + 1)))).toEqual([]);
      expect(perObject).toHaveLength(2 * CAP_KEEP); // a hash and a memo each
      expect(keys.filter((key) => key.includes(':lock:') || key.includes(':tmp:'))).toEqual([]);
    }
    await expectIndexesConsistent(CapEntry, redis.raw, redis.prefix);
    await expectIndexesConsistent(CapCounter, redis.raw, redis.prefix);
  });
});
