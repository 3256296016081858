import { Attr, BaseEntity, Index, Model, Persisted, SortableString, Unique } from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * Expired objects are invisible at once to every read path, before any sweep, and are then swept whole.
 * A query sweeps every expired object of its model as it starts, so each read path gets a model of its own
 * (same attributes, other name) and meets expired objects nobody has swept yet: each check first shows the
 * expired objects still in `all` with their memo, then that the read does not see them.
 *
 * The timeline is shared: objects are created once (model ttl TTL seconds; two per model persisted so they
 * stay), the tests run in order, past the TTL, then 1.5 s past it.
 */

/**
 * Seconds every object here is first given: the first test reads them all before their time, so the setup
 * must end well before it, on a loaded machine too. Three seconds leave it 2.5 s (one left it 0.9 s); the
 * file waits 2 s longer for it.
 */
const TTL = 3;

function expiringModel(name: string) {
  @Model({ name, ttl: TTL })
  class Expiring extends BaseEntity {
    @Attr() @Index() kind?: string;
    @Attr() @Index() rank?: number;
    @Attr({ type: 'string' }) @Index({ sortable: true }) title?: SortableString;
    @Attr() @Unique() code?: string;
  }
  return Expiring;
}
type Expiring = ReturnType<typeof expiringModel>;

@Model({ expirable: true })
class ExpiryNote extends BaseEntity {
  @Attr() @Index() tag?: string;
  @Attr() @Unique() slug?: string;
}

const redis = useTestRedis();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const PATHS = ['Lookups', 'CountSet', 'CountRange', 'FindAll', 'FindOrdered', 'FindLex', 'FindIds', 'Iterate', 'FindUnique', 'Retake'];
const models = new Map(PATHS.map((path) => [path, expiringModel(`Exp${path}`)]));
/** Per model: ids that expire, ids that were persisted and stay. */
const ids = new Map<string, { expired: string[]; live: string[] }>();
let started = 0;
/**
 * When each group of TTLs has surely run out: a TTL runs from the moment Redis applied the create or
 * expire(), which is before its reply arrived, so "reply time + TTL" is an upper bound on a loaded machine.
 */
const deadlines = { models: 0, short: 0 };
let notes: { kept: Persisted<ExpiryNote>; short: Persisted<ExpiryNote>; longer: Persisted<ExpiryNote> };

const base = (path: string) => `${redis.prefix}:{Exp${path}}`;
const model = (path: string) => models.get(path)!;
const until = async (at: number) => sleep(Math.max(0, at + 50 - Date.now()));

/** The expired objects of the model are still in `all`, with their memo, but their hash is gone. */
async function expectUnswept(path: string): Promise<void> {
  for (const id of ids.get(path)!.expired) {
    expect(await redis.raw.zScore(`${base(path)}:all`, id)).not.toBeNull();
    expect(await redis.raw.exists(`${base(path)}:memo:${id}`)).toBe(1);
    expect(await redis.raw.exists(`${base(path)}:obj:${id}`)).toBe(0);
  }
}

/** No key of the model mentions an expired id any more, and every index agrees with the live objects. */
async function expectSwept(path: string, Model: Expiring): Promise<void> {
  const expired = new Set(ids.get(path)!.expired);
  const keys = (await keysUnder(redis.raw, redis.prefix)).filter((key) => key.startsWith(`${base(path)}:`));
  expect(keys.filter((key) => /:(obj|memo):/.test(key) && expired.has(key.slice(key.lastIndexOf(':') + 1)))).toEqual([]);
  const exp = await redis.raw.zRange(`${base(path)}:exp`, 0, -1);
  expect(exp.filter((id) => expired.has(id))).toEqual([]);
  const all = await redis.raw.zRange(`${base(path)}:all`, 0, -1);
  expect(all.sort()).toEqual([...ids.get(path)!.live].sort());
  const report = await expectIndexesConsistent(Model, redis.raw, redis.prefix);
  expect(report.objects).toBe(ids.get(path)!.live.length);
}

beforeAll(async () => {
  started = Date.now();
  await Promise.all(
    PATHS.map(async (path) => {
      const Model = model(path);
      const expired = await Promise.all(
        [3, 1, 2].map((rank) => Model.create({ kind: 'a', rank, title: `t${rank}`, code: `gone-${rank}` })),
      );
      const live = await Promise.all([10, 11].map((rank) => Model.create({ kind: 'a', rank, title: `t${rank}`, code: `kept-${rank}` })));
      for (const entity of live) await entity.persist();
      ids.set(path, { expired: expired.map((e) => e.id), live: live.map((e) => e.id) });
    }),
  );
  deadlines.models = Date.now() + TTL * 1000;
  notes = {
    kept: await ExpiryNote.create({ tag: 'n', slug: 'kept' }),
    short: await ExpiryNote.create({ tag: 'n', slug: 'short' }),
    longer: await ExpiryNote.create({ tag: 'n', slug: 'longer' }),
  };
  await notes.kept.expire(TTL);
  await notes.short.expire(TTL);
  deadlines.short = Date.now() + TTL * 1000;
  // far past the short ones, so that it is still there after waiting for them however loaded the machine; the
  // test then gives it a short time to live of its own
  await notes.longer.expire(TTL + 600);
  await notes.kept.persist();
  if (Date.now() - started > (TTL - 0.5) * 1000) throw new Error(`setup took too long for a ${TTL} s TTL: the machine is overloaded`);
});

describe('objects of a model with a ttl, before their time', () => {
  it('report their time to live, and persisted ones none', async () => {
    const Lookups = model('Lookups');
    const one = await Lookups.findOrFail(ids.get('Lookups')!.expired[0]);
    const left = await one.ttl();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(TTL);
    expect(await (await Lookups.findOrFail(ids.get('Lookups')!.live[0])).ttl()).toBeNull();
    expect(await Lookups.count()).toBe(5);
    expect(await notes.kept.ttl()).toBeNull();
    expect(await notes.short.ttl()).toBeGreaterThan(0);
  });
});

describe('expired objects, before any sweep', () => {
  beforeAll(() => until(deadlines.models));

  it('are invisible to find, findMany, exists and count, which sweep nothing', async () => {
    const Lookups = model('Lookups');
    const { expired, live } = ids.get('Lookups')!;
    await expectUnswept('Lookups');
    for (const id of expired) {
      expect(await Lookups.find(id)).toBeNull();
      expect(await Lookups.exists(id)).toBe(false);
    }
    expect((await Lookups.findMany([...expired, ...live])).map((e) => e?.id ?? null)).toEqual([null, null, null, ...live]);
    expect(await Lookups.count()).toBe(2);
    await expectUnswept('Lookups');
  });

  it('are deleted whole by Model.sweep()', async () => {
    const Lookups = model('Lookups');
    expect(await Lookups.sweep()).toBe(3);
    expect(await Lookups.sweep()).toBe(0);
    await expectSwept('Lookups', Lookups);
  });

  const queries: Array<[string, string, (Model: Expiring) => Promise<unknown>, (live: string[]) => unknown]> = [
    ['CountSet', 'count(where) on a set index', (M) => M.count({ kind: 'a' }), () => 2],
    ['CountRange', 'count(where) on a range', (M) => M.count({ rank: { gte: 0 } }), () => 2],
    ['FindAll', 'findBy without orderBy', async (M) => (await M.findBy()).map((e) => e.id), (live) => live],
    [
      'FindOrdered',
      'findBy with where and orderBy',
      async (M) => (await M.findBy({ kind: 'a' }, { orderBy: { rank: 'desc' } })).map((e) => e.id),
      (live) => [...live].reverse(),
    ],
    [
      'FindLex',
      'findBy ordered by a sortable string',
      async (M) => (await M.findBy({}, { orderBy: { title: 'asc' } })).map((e) => e.id),
      (live) => live,
    ],
    ['FindIds', 'findIds', (M) => M.findIds({ rank: { lt: 100 } }), (live) => live],
    [
      'Iterate',
      'iterate',
      async (M) => {
        const seen: string[] = [];
        for await (const entity of M.iterate(undefined, { batchSize: 1 })) seen.push(entity.id);
        return seen;
      },
      (live) => live,
    ],
    ['FindUnique', 'findOneBy on a unique value', async (M) => (await M.findOneBy({ code: 'gone-1' }))?.id ?? null, () => null],
  ];

  it.each(queries)('are invisible to %s (%s), which sweeps them', async (path, _label, read, expected) => {
    await expectUnswept(path);
    expect(await read(model(path))).toEqual(expected(ids.get(path)!.live));
    await expectSwept(path, model(path));
  });

  it('give up their unique values: a create takes one at once, and sweeps them lazily', async () => {
    const Retake = model('Retake');
    await expectUnswept('Retake');
    const again = await Retake.create({ kind: 'b', rank: 5, code: 'gone-1' });
    await again.persist();
    expect((await Retake.findOneBy({ code: 'gone-1' }))?.id).toBe(again.id);
    ids.get('Retake')!.live.push(again.id);
    await expectSwept('Retake', Retake);
    ids.get('Retake')!.live.pop();
  });
});

describe('expire() and persist() on a model without ttl', () => {
  it('expire after the time given, and persist() cancels it', async () => {
    await until(deadlines.short);
    expect(await ExpiryNote.find(notes.short.id)).toBeNull();
    expect(await ExpiryNote.exists(notes.short.id)).toBe(false);
    expect(await notes.longer.ttl()).toBeGreaterThan(0);
    expect((await ExpiryNote.find(notes.kept.id))?.slug).toBe('kept');
    expect(await ExpiryNote.count()).toBe(2);
    await notes.longer.expire(0.3);
    await until(Date.now() + 300);
    expect(await ExpiryNote.find(notes.longer.id)).toBeNull();
    expect(await ExpiryNote.count()).toBe(1);
    expect(await ExpiryNote.count({ tag: 'n' })).toBe(1);
    expect(await ExpiryNote.sweep()).toBe(0); // the query above swept them
    const keys = (await keysUnder(redis.raw, redis.prefix)).filter((key) => key.includes('{ExpiryNote}'));
    expect(keys.filter((key) => key.endsWith(`:${notes.short.id}`) || key.endsWith(`:${notes.longer.id}`))).toEqual([]);
    expect((await ExpiryNote.create({ slug: 'short' })).slug).toBe('short');
    await expectIndexesConsistent(ExpiryNote, redis.raw, redis.prefix);
  });
});
