import { Attr, BaseEntity, Counter, Index, Model, NotFoundError, SchemaError, Unique } from '../../src';
import { seeded } from '../../tools/seeded-random';
import { CapLogin, PER_KEEP } from '../support/cap-workers/worker-models';
import { useCapWorkers } from '../support/cap-workers/use-workers';
import { expectIndexesConsistent } from '../support/index-consistency';
import { schemaErrorOf } from '../support/schema-error-of';
import { keysUnder, useTestRedis } from '../support/test-redis';
import { reportOf } from '../support/worker-processes/spawn-worker';

/**
 * `@Model({ cap: { by, keep, per } })`: each value of `per` keeps its first `keep` objects by `by`, trimmed in the
 * script of every write (create, save moving `at` or the user, saveMany, increment). Checked against an oracle that
 * applies each write and trims its group, and under four writer processes on their own connections.
 */

@Model({ cap: { by: 'at', keep: 3, per: 'userId' } })
class CpVisit extends BaseEntity {
  @Attr() userId?: string;
  @Attr() @Index({ scope: 'userId' }) at?: number;
  @Attr() @Unique() token?: string;
  @Attr() @Index() page?: string;
}

@Model({ cap: { by: 'points', keep: 2, per: 'team', order: 'asc' } })
class CpRunner extends BaseEntity {
  @Attr() team?: number;
  @Counter() @Index({ scope: 'team' }) points = 0;
}

@Model({ cap: { by: 'when', keep: 2, per: 'room' } })
class CpMessage extends BaseEntity {
  @Attr() room?: string;
  @Attr() @Index({ scope: 'room' }) when?: Date;
}

const redis = useTestRedis();
const workers = useCapWorkers(redis);
const base = (model: string) => `${redis.prefix}:{${model}}`;

type Row = { userId?: string; at: number };

/** The first `keep` of `rows` (id -> row) with user `userId`, highest `at` first, ties by the larger id. */
function firstKept(rows: Map<string, Row>, userId: string, keep: number): Array<[string, number]> {
  return [...rows]
    .filter(([, row]) => row.userId === userId)
    .sort(([a, x], [b, y]) => y.at - x.at || Number(b) - Number(a))
    .slice(0, keep)
    .map(([id, row]) => [id, row.at]);
}

/** The oracle: applies a write of object `id`, then trims its group as the cap does. */
function apply(rows: Map<string, Row>, id: string, row: Row): void {
  rows.set(id, row);
  if (row.userId === undefined) return;
  const kept = new Set(firstKept(rows, row.userId, 3).map(([kept]) => kept));
  for (const [other, { userId }] of rows) if (userId === row.userId && !kept.has(other)) rows.delete(other);
}

async function expectStored(rows: Map<string, Row>, users: readonly string[]): Promise<void> {
  for (const userId of users) {
    const stored = await CpVisit.findBy({ userId }, { orderBy: { at: 'desc' } });
    expect([userId, stored.map((visit) => [visit.id, visit.at])]).toEqual([userId, firstKept(rows, userId, 3)]);
  }
  expect(await CpVisit.count()).toBe(rows.size);
}

describe('a cap per value', () => {
  it('keeps the first `keep` of each user through creates, saves moving objects, saveMany and removals', async () => {
    const random = seeded(50);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
    const users = ['ann', 'bob', 'cid', 'dan'];
    const rows = new Map<string, Row>();
    let token = 0;
    for (let step = 0; step < 160; step++) {
      const roll = random();
      const live = [...rows.keys()];
      if (roll < 0.35 || live.length < 4) {
        const row = { userId: pick(users), at: Math.floor(random() * 20) };
        const visit = await CpVisit.create({ ...row, token: `t${token++}`, page: pick(['a', 'b']) });
        apply(rows, visit.id, row);
      } else if (roll < 0.65) {
        // a save changing `at`, the user, or both (the object moves to another group, which is trimmed)
        const id = pick(live);
        const visit = (await CpVisit.findOrFail(id)) as CpVisit;
        if (random() < 0.6) visit.userId = pick(users);
        if (random() < 0.6) visit.at = Math.floor(random() * 20);
        await visit.save();
        apply(rows, id, { userId: visit.userId, at: visit.at! });
      } else if (roll < 0.8) {
        // a batch of creates spanning users: each created, then its group trimmed, in order
        const items = Array.from({ length: 5 }, () => ({ userId: pick(users), at: Math.floor(random() * 20), token: `t${token++}` }));
        const result = await CpVisit.saveMany(items);
        expect(result.ok).toBe(true);
        result.saved.forEach((visit, i) => apply(rows, visit.id, { userId: items[i].userId, at: items[i].at }));
      } else if (roll < 0.93) {
        // a batch of updates moving objects between users: an object evicted by an earlier one is not found
        const ids = [...new Set(Array.from({ length: 4 }, () => pick(live)))];
        const visits = (await CpVisit.findMany(ids)).filter((visit) => visit !== null);
        for (const visit of visits) [visit.userId, visit.at] = [pick(users), Math.floor(random() * 20)];
        const result = await CpVisit.saveMany(visits);
        const missing: string[] = [];
        for (const visit of visits) {
          if (rows.has(visit.id)) apply(rows, visit.id, { userId: visit.userId, at: visit.at! });
          else missing.push(visit.id);
        }
        expect(result.failed.map((failure) => [failure.entity?.id, failure.error instanceof NotFoundError])).toEqual(
          missing.map((id) => [id, true]),
        );
      } else {
        const id = pick(live);
        await (await CpVisit.findOrFail(id)).remove();
        rows.delete(id);
      }
      await expectStored(rows, users);
    }
    await expectIndexesConsistent(CpVisit, redis.raw, redis.prefix);
    expect((await CpVisit.check()).violations).toEqual([]);
  });

  it('trims in Model.update and Model.upsert as in save(), moving a visit between users', async () => {
    const visits = [];
    for (let at = 1; at <= 3; at++) visits.push(await CpVisit.create({ userId: 'hal', at, token: `hal-${at}` }));
    const ivy = await CpVisit.create({ userId: 'ivy', at: 1, token: 'ivy-1' });
    const updated = await CpVisit.update(ivy.id, { userId: 'hal', at: 9 });
    expect(updated.userId).toBe('hal');
    expect(await CpVisit.exists(visits[0].id)).toBe(false);
    const { entity, created } = await CpVisit.upsert({ token: 'hal-2', userId: 'ivy', at: 0 }, { on: 'token' });
    expect([entity.id, created]).toEqual([visits[1].id, false]);
    await CpVisit.upsert({ token: 'hal-new', userId: 'hal', at: 10 }, { on: 'token' });
    const hal = await CpVisit.findBy({ userId: 'hal' }, { orderBy: { at: 'desc' } });
    expect(hal.map((visit) => [visit.token, visit.at])).toEqual([
      ['hal-new', 10],
      ['ivy-1', 9],
      ['hal-3', 3],
    ]);
    expect((await CpVisit.findBy({ userId: 'ivy' }, { orderBy: { at: 'desc' } })).map((visit) => visit.token)).toEqual(['hal-2']);
    await expectIndexesConsistent(CpVisit, redis.raw, redis.prefix);
  });

  it('removes an evicted object whole: hash, memo, all, every index and unique entry', async () => {
    const first = await CpVisit.create({ userId: 'eve', at: 1, token: 'eve-1', page: 'p' });
    for (let at = 2; at <= 4; at++) await CpVisit.create({ userId: 'eve', at, token: `eve-${at}`, page: 'p' });
    expect(await CpVisit.find(first.id)).toBeNull();
    const keys = await keysUnder(redis.raw, base('CpVisit'));
    expect(keys.filter((key) => key.endsWith(`:obj:${first.id}`) || key.endsWith(`:memo:${first.id}`))).toEqual([]);
    expect(await redis.raw.zScore(`${base('CpVisit')}:all`, first.id)).toBeNull();
    expect(await redis.raw.sMembers(`${base('CpVisit')}:idx:page:p`)).not.toContain(first.id);
    expect(await redis.raw.zRange(`${base('CpVisit')}:idx:at@userId:eve`, 0, -1)).toHaveLength(3);
    expect(await redis.raw.zScore(`${base('CpVisit')}:idx:at@userId:eve`, first.id)).toBeNull();
    expect(await redis.raw.hGet(`${base('CpVisit')}:uniq:token`, 'eve-1')).toBeNull();
    // its unique value is free again
    expect((await CpVisit.create({ userId: 'fay', at: 1, token: 'eve-1' })).id).toBeDefined();
  });

  it('leaves an object without a value of `per` in no group, and not capped', async () => {
    const loose = await Promise.all([1, 2, 3, 4, 5].map((at) => CpVisit.create({ at, token: `loose-${at}` })));
    expect(await Promise.all(loose.map((visit) => CpVisit.exists(visit.id)))).toEqual([true, true, true, true, true]);
    // given a user, it joins that group and is trimmed with it
    const [moved] = loose;
    moved.userId = 'gus';
    await moved.save();
    for (let at = 10; at < 13; at++) await CpVisit.create({ userId: 'gus', at });
    expect(await CpVisit.exists(moved.id)).toBe(false);
    await expectIndexesConsistent(CpVisit, redis.raw, redis.prefix);
  });

  it('trims the group of an incremented counter, lowest first, with a number as the group (-0 is 0)', async () => {
    const runners = [];
    for (const team of [0, -0, 0, 7]) runners.push(await CpRunner.create({ team }));
    // team 0 (and -0) keeps its 2 lowest: the third is evicted on create (points 0, ties: the smaller ids stay)
    expect((await CpRunner.findBy({ team: 0 }, { orderBy: { points: 'asc' } })).map((r) => r.id)).toEqual([runners[0].id, runners[1].id]);
    await runners[3].increment('points', 5);
    const joining = await CpRunner.create({ team: 7 });
    await joining.increment('points', 9);
    const third = await CpRunner.create({ team: 7 });
    // team 7 kept 5 and 9; a 0 joining evicts 9, which the increment made the highest
    expect((await CpRunner.findBy({ team: 7 }, { orderBy: { points: 'asc' } })).map((r) => [r.id, r.points])).toEqual([
      [third.id, 0],
      [runners[3].id, 5],
    ]);
    await runners[0].increment('points', 3);
    await runners[1].increment('points', 1);
    expect(await CpRunner.count()).toBe(4);
    await expectIndexesConsistent(CpRunner, redis.raw, redis.prefix);
  });

  it('caps by a Date per room', async () => {
    for (let day = 1; day <= 4; day++) await CpMessage.create({ room: 'r1', when: new Date(Date.UTC(2026, 0, day)) });
    await CpMessage.create({ room: 'r2', when: new Date(Date.UTC(2020, 0, 1)) });
    expect((await CpMessage.findBy({ room: 'r1' }, { orderBy: { when: 'desc' } })).map((m) => m.when!.getUTCDate())).toEqual([4, 3]);
    expect(await CpMessage.count()).toBe(3);
  });

  it('describes `per` in the stored definition', async () => {
    const stored = JSON.parse((await redis.raw.hGet(`${redis.prefix}#models`, 'CpVisit'))!);
    expect(stored.cap).toEqual({ by: 'at', keep: 3, order: 'desc', per: 'userId' });
  });
});

describe('bad cap options', () => {
  it.each([
    ['an unknown per', { per: 'user' }, 'cap.per "user" is not an attribute of the model'],
    ['a json per', { per: 'meta' }, 'cap.per meta is a json attribute'],
    ['a counter per', { per: 'visits' }, 'cap.per visits is a counter'],
    ['per equal to by', { per: 'at' }, 'cap.per cannot be cap.by (at)'],
    ['per that is not a name', { per: 3 }, 'cap.per must name an attribute, got 3'],
    ['keep below 1', { per: 'userId', keep: 0 }, 'cap.keep must be a whole number >= 1'],
    ['by without the index scoped by per', { per: 'userId', by: 'plain' }, "@Index({ scope: 'userId' })"],
  ])('%s is a SchemaError naming the option', (_label, given, message) => {
    const error = schemaErrorOf(() => {
      @Model({ cap: { by: 'at', keep: 2, ...given } as never })
      class CpBad extends BaseEntity {
        @Attr() userId?: string;
        @Attr() @Index({ scope: 'userId' }) at?: number;
        @Attr() @Index() plain?: number;
        @Attr({ type: 'json' }) meta?: object;
        @Counter() visits = 0;
      }
      return CpBad;
    });
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.message).toMatch(/^CpBad: /);
    expect(error.message).toContain(message);
  });

  it('refuses a cap per value on a sharded model', () => {
    const error = schemaErrorOf(() => {
      @Model({ shards: 4, cap: { by: 'at', keep: 2, per: 'userId' } })
      class CpSharded extends BaseEntity {
        @Attr() userId?: string;
        @Attr() @Index({ scope: 'userId' }) at?: number;
      }
      return CpSharded;
    });
    expect(error.message).toContain('CpSharded: a sharded model cannot be capped (the objects of one value of cap.per');
  });
});

describe('a cap per value under 4 writer processes, each on its own connection', () => {
  const PROCESSES = 4;
  const USERS = 5;
  type Report = { acked: Record<string, [string, number]>; own: Array<[string, number]>; counts: Record<string, number> };
  let reports: Report[] = [];
  let largest = 0;
  let samples = 0;

  beforeAll(async () => {
    let running = true;
    const sampler = (async () => {
      while (running) {
        const sizes = await Promise.all(
          Array.from({ length: USERS }, (_, u) => redis.raw.zCard(`${base('CapLogin')}:idx:at@userId:u${u}`)),
        );
        largest = Math.max(largest, ...sizes);
        samples++;
      }
    })();
    try {
      const run = await workers.run('logins', PROCESSES, (i) => ({ ops: 250, token: `w${i}`, users: USERS }), 120_000);
      reports = run.map((worker) => reportOf<Report>(worker));
    } finally {
      running = false;
      await sampler;
    }
  }, 180_000);

  it('had real contention: many more logins acknowledged than kept, and some evicted under a writer', () => {
    const total = (count: string) => reports.reduce((sum, report) => sum + report.counts[count], 0);
    expect(total('creates') + total('moves')).toBeGreaterThan(10 * USERS * PER_KEEP);
    expect(total('evicted')).toBeGreaterThan(0);
    expect(total('moves')).toBeGreaterThan(0);
    expect(total('batches')).toBeGreaterThan(0);
    expect(samples).toBeGreaterThan(10);
  });

  it('never showed a group of more than `keep` to a sampler reading ZCARD while they ran', () => {
    expect(largest).toBeLessThanOrEqual(PER_KEEP);
  });

  it('keeps exactly the first `keep` of every value acknowledged for each shared user', async () => {
    const acked = new Map<string, Row>();
    for (const report of reports) for (const [id, [userId, at]] of Object.entries(report.acked)) acked.set(id, { userId, at });
    for (let u = 0; u < USERS; u++) {
      const stored = await CapLogin.findBy({ userId: `u${u}` }, { orderBy: { at: 'desc' } });
      expect(stored.map((login) => [login.id, login.at])).toEqual(firstKept(acked, `u${u}`, PER_KEEP));
    }
  });

  it("keeps each writer's own user exactly as that writer followed it", async () => {
    for (const [i, report] of reports.entries()) {
      const stored = await CapLogin.findBy({ userId: `p-w${i}` }, { orderBy: { at: 'desc' } });
      expect(stored.map((login) => [login.id, login.at])).toEqual(report.own);
    }
  });

  it('leaves no key or entry of an evicted login, and check() finds nothing', async () => {
    const live = new Set(await redis.raw.zRange(`${base('CapLogin')}:all`, 0, -1));
    expect(live.size).toBe(USERS * PER_KEEP + reports.reduce((sum, report) => sum + report.own.length, 0));
    const keys = (await keysUnder(redis.raw, redis.prefix)).filter((key) => key.startsWith(`${base('CapLogin')}:`));
    const perObject = keys.filter((key) => /:(obj|memo):/.test(key));
    expect(perObject.filter((key) => !live.has(key.slice(key.lastIndexOf(':') + 1)))).toEqual([]);
    expect(await redis.raw.hLen(`${base('CapLogin')}:uniq:token`)).toBe(live.size);
    await expectIndexesConsistent(CapLogin, redis.raw, redis.prefix);
    expect((await CapLogin.check()).violations).toEqual([]);
  });
});
