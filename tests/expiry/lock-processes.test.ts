import { LockTimeoutError } from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { reportOf, WorkerProcess } from '../support/worker-processes/spawn-worker';
import { useExpiryWorkers } from '../support/expiry-workers/use-workers';
import { LockBox } from '../support/expiry-workers/worker-models';
import { useTestRedis } from '../support/test-redis';

/**
 * withLock across processes: a read-modify-write that loses updates without the lock loses none with it;
 * a holder killed with SIGKILL blocks others for at most ttlMs, and its lock key goes away by itself; work
 * that outlives ttlMs is no longer exclusive, and its late release does not free the next holder's lock.
 */

const redis = useTestRedis();
const workers = useExpiryWorkers(redis);
const PROCESSES = 6;
const OPS = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const lockKey = (id: string) => `${redis.prefix}:{LockBox}:lock:${id}`;

describe('withLock across processes', () => {
  it('keeps every update of a read-modify-write that loses updates without it', async () => {
    const locked = await LockBox.create({});
    const bare = await LockBox.create({});
    const run = await workers.run('lock', PROCESSES, (i) => ({ locked: locked.id, bare: bare.id, ops: OPS, token: `w${i}` }));
    const reports = run.map((worker) => reportOf<{ locked: number; bare: number }>(worker));
    const done = reports.reduce((sum, r) => sum + r.locked, 0);
    expect(done).toBe(PROCESSES * OPS);

    const stored = await LockBox.findOrFail(locked.id);
    expect(stored.total).toBe(done);
    const tokens = stored.tokens.split(';').filter(Boolean).sort();
    const expected = Array.from({ length: PROCESSES }, (_, w) => Array.from({ length: OPS }, (_, k) => `w${w}.${k}`)).flat();
    expect(tokens).toEqual(expected.sort());
    expect(await redis.raw.exists(lockKey(locked.id))).toBe(0);

    // the same rounds without the lock, at the same time: updates are lost
    expect((await LockBox.findOrFail(bare.id)).total).toBeLessThan(PROCESSES * OPS);
    await expectIndexesConsistent(LockBox, redis.raw, redis.prefix);
  });
});

describe('a lock holder killed with SIGKILL', () => {
  const ttlMs = 1500;
  const shortTtlMs = 1000;
  let boxes: string[] = [];
  let locked = 0;
  let killed = 0;
  let shortLeft = 0;
  let next: WorkerProcess;

  beforeAll(async () => {
    boxes = [(await LockBox.create({})).id, (await LockBox.create({})).id];
    const holder = workers.start('hold', { ids: boxes, ttlMs: [ttlMs, shortTtlMs] });
    next = workers.start('acquire', { id: boxes[0], ttlMs, waitMs: 60_000 });
    await Promise.all([holder.ready, next.ready]);
    holder.go();
    locked = Number((await holder.waitForLine('locked '))?.slice(7));
    expect(locked).toBeGreaterThan(0);
    holder.child.kill('SIGKILL');
    await holder.finished;
    killed = Date.now();
    shortLeft = await redis.raw.pTTL(lockKey(boxes[1]));
  });

  it('blocks others until ttlMs has passed, then another process takes the lock', async () => {
    const left = await redis.raw.pTTL(lockKey(boxes[0]));
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(ttlMs);
    if (left > 300) {
      await expect(LockBox.withLock(boxes[0], async () => 'in', { waitMs: 100 })).rejects.toBeInstanceOf(LockTimeoutError);
    }
    next.go();
    const acquired = Number((await next.waitForLine('acquired '))?.slice(9));
    await next.finished;
    reportOf(next);
    // not before the dead holder's lock expired (less the few ms between its SET and its report); when after
    // is the machine's business (the waiter gives up after its waitMs)
    expect(acquired - locked).toBeGreaterThanOrEqual(ttlMs - 300);
    expect(await redis.raw.exists(lockKey(boxes[0]))).toBe(0);
  });

  it('leaves no lock key behind once ttlMs has passed', async () => {
    // the dead holder's lock expires by its own TTL, its ttlMs (-2: gone already, on a machine slow enough that
    // more than ttlMs passed between the lock and this read); when is Redis's business, not timed here
    expect(shortLeft === -2 || (shortLeft > 0 && shortLeft <= shortTtlMs)).toBe(true);
    while ((await redis.raw.exists(lockKey(boxes[1]))) === 1 && Date.now() - killed < shortTtlMs + 10_000) await sleep(20);
    expect(await redis.raw.exists(lockKey(boxes[1]))).toBe(0);
  });
});

describe('work that outlives ttlMs', () => {
  it('lets the next caller in, and its late release leaves the next holder locked', async () => {
    const box = await LockBox.create({});
    const events: string[] = [];
    const first = LockBox.withLock(
      box.id,
      async () => {
        events.push('first in');
        await sleep(800);
        events.push('first out');
      },
      { ttlMs: 300 },
    );
    await sleep(50);
    let secondToken: string | null = null;
    const second = LockBox.withLock(
      box.id,
      async () => {
        events.push('second in');
        secondToken = await redis.raw.get(lockKey(box.id));
        await sleep(1200);
        events.push('second out');
      },
      { ttlMs: 5000, waitMs: 2000 },
    );
    await first;
    // the first holder's release (by token) did not delete the second holder's lock
    expect(secondToken).not.toBeNull();
    expect(await redis.raw.get(lockKey(box.id))).toBe(secondToken);
    await second;
    expect(events).toEqual(['first in', 'second in', 'first out', 'second out']);
    expect(await redis.raw.exists(lockKey(box.id))).toBe(0);
  });
});
