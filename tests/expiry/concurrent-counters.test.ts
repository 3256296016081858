import type { Persisted } from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { reportOf } from '../support/worker-processes/spawn-worker';
import { useExpiryWorkers } from '../support/expiry-workers/use-workers';
import { Tally } from '../support/expiry-workers/worker-models';
import { useTestRedis } from '../support/test-redis';

/**
 * Ten processes, each with its own connection, increment the same @Counter a thousand times each: every
 * increment is one atomic HINCRBY (HINCRBYFLOAT once a fraction is involved), so none is lost, every reply
 * is a distinct intermediate value, and the counter's index follows. Each process hammers two counters at
 * once: one by whole steps, one with a fraction mixed in.
 */

const redis = useTestRedis();
const workers = useExpiryWorkers(redis);
const PROCESSES = 10;
const EACH = 1000;
let whole: Persisted<Tally>;
let mixed: Persisted<Tally>;
let replies: { whole: number[]; mixed: number[] };

beforeAll(async () => {
  whole = await Tally.create({ name: 'whole' });
  mixed = await Tally.create({ name: 'mixed', hits: 0.5 });
  const run = await workers.run('increment', PROCESSES, () => ({ whole: whole.id, mixed: mixed.id, count: EACH, lanes: 4 }), 120_000);
  const reports = run.map((worker) => reportOf<{ whole: number[]; mixed: number[] }>(worker));
  replies = { whole: reports.flatMap((r) => r.whole), mixed: reports.flatMap((r) => r.mixed) };
}, 180_000);

describe('a counter incremented by 10 processes x 1,000 at once', () => {
  it('ends at exactly 10,000, and the replies are exactly 1 .. 10,000', async () => {
    expect(replies.whole).toHaveLength(PROCESSES * EACH);
    expect([...replies.whole].sort((a, b) => a - b)).toEqual(Array.from({ length: PROCESSES * EACH }, (_, i) => i + 1));
    expect((await Tally.findOrFail(whole.id)).hits).toBe(PROCESSES * EACH);
    expect(await Tally.findIds({ hits: PROCESSES * EACH })).toEqual([whole.id]);
  });

  it('ends at the exact total with a fractional amount mixed in', async () => {
    // from 0.5; per process 900 x 1 + 100 x 0.25 = 925 (every value exact in binary)
    const total = 0.5 + PROCESSES * 925;
    expect(new Set(replies.mixed).size).toBe(PROCESSES * EACH);
    expect(Math.max(...replies.mixed)).toBe(total);
    expect((await Tally.findOrFail(mixed.id)).hits).toBe(total);
    expect(await Tally.findIds({ hits: total })).toEqual([mixed.id]);
  });

  it('leaves the counter index in step with the stored values', async () => {
    await expectIndexesConsistent(Tally, redis.raw, redis.prefix);
  });
});
