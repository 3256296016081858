import { Attr, BaseEntity, Model, Unique, UniqueConstraintError } from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { RaceMember } from '../support/index-workers/worker-models';
import { keysUnder, useTestRedis } from '../support/test-redis';
import { WorkerProcess } from '../support/worker-processes/spawn-worker';
import { useWorkerProcesses } from '../support/worker-processes/use-workers';

/**
 * @Unique: a value belongs to at most one live object. A save that would take a value held by another object
 * throws UniqueConstraintError(model, attribute, value) and writes nothing; changing or clearing a value, or
 * removing its object, frees it. Checked with concurrent creates on one connection and from 20 processes.
 */

@Model()
class UniqueAccount extends BaseEntity {
  @Attr() @Unique({ caseInsensitive: true }) email?: string;
  @Attr() @Unique() handle?: string;
  @Attr() @Unique() badge?: number;
  @Attr() note?: string;
}

const redis = useTestRedis();

/** Every key of the model with its content, to show that a refused save wrote nothing. */
async function snapshot(model: string): Promise<Record<string, unknown>> {
  const state: Record<string, unknown> = {};
  for (const key of await keysUnder(redis.raw, `${redis.prefix}:{${model}}`)) {
    const type = await redis.raw.type(key);
    state[key] =
      type === 'hash'
        ? await redis.raw.hGetAll(key)
        : type === 'zset'
          ? await redis.raw.zRangeWithScores(key, 0, -1)
          : type === 'set'
            ? (await redis.raw.sMembers(key)).sort()
            : await redis.raw.get(key);
  }
  return state;
}

async function expectUniqueError(promise: Promise<unknown>, attribute: string, value: unknown): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UniqueConstraintError);
  expect(error).toMatchObject({ model: 'UniqueAccount', attribute, value });
}

describe('unique values', () => {
  it('exact: another object cannot take the same value; nothing is written', async () => {
    const ann = await UniqueAccount.create({ handle: 'ann', badge: 1 });
    await UniqueAccount.create({ handle: 'Ann' }); // exact comparison: a different value
    const before = await snapshot('UniqueAccount');
    await expectUniqueError(UniqueAccount.create({ handle: 'ann', note: 'copy' }), 'handle', 'ann');
    await expectUniqueError(UniqueAccount.create({ handle: 'free', badge: 1 }), 'badge', 1);
    expect(await snapshot('UniqueAccount')).toEqual(before);
    expect((await UniqueAccount.findOneBy({ handle: 'ann' }))?.id).toBe(ann.id);
    expect((await UniqueAccount.findOneBy({ badge: 1 }))?.id).toBe(ann.id);
  });

  it('case-insensitive: values differing only in case collide', async () => {
    const first = await UniqueAccount.create({ email: 'Zoe@Example.COM' });
    const before = await snapshot('UniqueAccount');
    await expectUniqueError(UniqueAccount.create({ email: 'zoe@example.com' }), 'email', 'zoe@example.com');
    await expectUniqueError(UniqueAccount.create({ email: 'ZOE@EXAMPLE.COM' }), 'email', 'ZOE@EXAMPLE.COM');
    expect(await snapshot('UniqueAccount')).toEqual(before);
    expect((await UniqueAccount.findOneBy({ email: 'zOE@example.com' }))?.id).toBe(first.id);
    expect((await UniqueAccount.findOrFail(first.id)).email).toBe('Zoe@Example.COM'); // stored as given
  });

  it('an update to a taken value is refused and changes nothing; the object can still be saved', async () => {
    await UniqueAccount.create({ handle: 'taken' });
    const other = await UniqueAccount.create({ handle: 'mine', note: 'before' });
    const before = await snapshot('UniqueAccount');
    other.handle = 'taken';
    other.note = 'after';
    await expectUniqueError(other.save(), 'handle', 'taken');
    expect(await snapshot('UniqueAccount')).toEqual(before);
    other.handle = 'mine-too';
    await other.save();
    expect(await UniqueAccount.findOrFail(other.id)).toMatchObject({ handle: 'mine-too', note: 'after' });
  });

  it('changing, clearing or removing frees the value', async () => {
    const a = await UniqueAccount.create({ email: 'free1@x.io', handle: 'free1' });
    a.email = 'moved1@x.io';
    await a.save();
    await UniqueAccount.create({ email: 'FREE1@x.io' });
    a.handle = undefined;
    await a.save();
    await UniqueAccount.create({ handle: 'free1' });
    await a.remove();
    const again = await UniqueAccount.create({ email: 'moved1@x.io' });
    expect((await UniqueAccount.findOneBy({ email: 'Moved1@X.io' }))?.id).toBe(again.id);
    await expectIndexesConsistent(UniqueAccount, redis.raw, redis.prefix);
  });

  it('an object may change the case of its own case-insensitive value, and two objects may swap values', async () => {
    const a = await UniqueAccount.create({ email: 'swap-a@x.io' });
    const b = await UniqueAccount.create({ email: 'swap-b@x.io' });
    a.email = 'SWAP-A@x.io';
    await a.save();
    a.email = 'swap-tmp@x.io';
    await a.save();
    b.email = 'swap-a@x.io';
    await b.save();
    a.email = 'swap-b@x.io';
    await a.save();
    expect((await UniqueAccount.findOneBy({ email: 'swap-a@x.io' }))?.id).toBe(b.id);
    expect((await UniqueAccount.findOneBy({ email: 'swap-b@x.io' }))?.id).toBe(a.id);
    await expectIndexesConsistent(UniqueAccount, redis.raw, redis.prefix);
  });

  it('any number of objects may have no value', async () => {
    const none = await Promise.all([1, 2, 3].map(() => UniqueAccount.create({ note: 'no unique values' })));
    expect(none.map((account) => account.id)).toHaveLength(3);
    await expectIndexesConsistent(UniqueAccount, redis.raw, redis.prefix);
  });
});

describe('concurrent claims of one value', () => {
  it('20 creates in flight on one connection: exactly one wins', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => UniqueAccount.create({ email: i % 2 ? 'RACE@x.io' : 'race@X.io', note: String(i) })),
    );
    const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const lost = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(19);
    for (const { reason } of lost) expect(reason).toBeInstanceOf(UniqueConstraintError);
    expect(await UniqueAccount.count({ email: 'race@x.io' })).toBe(1);
    await expectIndexesConsistent(UniqueAccount, redis.raw, redis.prefix);
  });

  it('20 updates in flight to the same value: exactly one wins', async () => {
    const accounts = await Promise.all(Array.from({ length: 20 }, (_, i) => UniqueAccount.create({ handle: `racer-${i}` })));
    const outcomes = await Promise.allSettled(
      accounts.map((account) => {
        account.handle = 'podium';
        return account.save();
      }),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(UniqueConstraintError);
    expect(await UniqueAccount.count({ handle: 'podium' })).toBe(1);
    await expectIndexesConsistent(UniqueAccount, redis.raw, redis.prefix);
  });

  describe('20 processes, each with its own connection', () => {
    const indexWorkers = useWorkerProcesses(redis, 'index', 'tests/support/index-workers/index-worker.ts');
    const workers: WorkerProcess[] = [];

    it('create the same value at once: exactly one succeeds, the others get UniqueConstraintError', async () => {
      for (let i = 0; i < 20; i++) {
        workers.push(indexWorkers.start({ WORKER_MODE: 'race', WORKER_EMAIL: i % 2 ? 'Same@Example.io' : 'same@example.IO' }));
      }
      await Promise.all(workers.map((worker) => worker.ready));
      for (const worker of workers) worker.go();
      const codes = await Promise.all(workers.map((worker) => worker.finished));
      const lines = workers.flatMap((worker) => worker.lines);
      expect({ codes, stderr: workers.map((worker) => worker.stderr()).filter(Boolean) }).toEqual({
        codes: codes.map(() => 0),
        stderr: [],
      });
      expect(lines.filter((line) => line.startsWith('ok '))).toHaveLength(1);
      expect(lines.filter((line) => line === 'unique email')).toHaveLength(19);
      expect(lines).toHaveLength(20);
      expect(await RaceMember.count()).toBe(1);
      expect((await RaceMember.findOneBy({ email: 'SAME@example.io' }))?.id).toBe(lines.find((line) => line.startsWith('ok '))!.slice(3));
      await expectIndexesConsistent(RaceMember, redis.raw, redis.prefix);
    });
  });
});

describe('after the writes', () => {
  it('every unique value maps to the one live object holding it', async () => {
    const report = await expectIndexesConsistent(UniqueAccount, redis.raw, redis.prefix);
    expect(report.objects).toBeGreaterThan(30);
  });
});
