import { AfterUpdate, Attr, BaseEntity, BelongsTo, Index, Model, RedisRecordError, Unique, WrongTypeError } from '../../src';
import { useCountingConnection } from '../core/support/counting-client';
import { useTestRedis } from '../support/test-redis';

/**
 * A bulk create refused by Redis, for a key of another type or a sequence holding no number: only the items the
 * refusal concerns fail, each in `failed` with a clear error and nothing of it written; the call's other
 * chunks, and its updates (with their after-hooks), are written and reported as saved.
 */

/** Bulk creates take the plain path: one draw for the call, then a MULTI per chunk. */
@Model()
class RfPlain extends BaseEntity {
  @Attr() name!: string;
  @Attr() @Index() topic?: string;
}

/** Updates to count the after-hooks of, and creates on the plain path. */
@Model()
class RfHooked extends BaseEntity {
  static updated: string[] = [];
  @Attr() name!: string;
  @Attr() @Index() topic?: string;
  @AfterUpdate() noteUpdate() {
    RfHooked.updated.push(this.name);
  }
}

/** Creates go through save-many.lua (a unique value to check). */
@Model()
class RfUnique extends BaseEntity {
  @Attr() @Unique() code!: string;
}

/** Creates go through save-many.lua (a foreign key). */
@Model()
class RfChild extends BaseEntity {
  @Attr() name!: string;
  @BelongsTo(() => RfChild) parent!: BelongsTo<RfChild>;
  parentId?: string;
}

/** Creates go through save-many.lua object by object (a time to live). */
@Model({ ttl: 3600 })
class RfLog extends BaseEntity {
  @Attr() @Index() level!: string;
}

const redis = useTestRedis();
const counting = useCountingConnection(redis);
const key = (model: string, name: string) => `${redis.prefix}:{${model}}:${name}`;
const scriptCalls = () => counting.calls.filter((call) => call === 'fCall').length;

/** Runs `work` with `damaged` holding `value` (a string, or a hash for an object), then deletes it. */
async function withDamaged<T>(damaged: string, value: string | Record<string, string>, work: () => Promise<T>): Promise<T> {
  if (typeof value === 'string') await redis.raw.set(damaged, value);
  else await redis.raw.hSet(damaged, value);
  try {
    return await work();
  } finally {
    await redis.raw.del(damaged);
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('a plain bulk create with an index key of another type', () => {
  it('fails only the chunk that writes the key; the other chunks are written', async () => {
    const damaged = key('RfPlain', 'idx:topic:bad');
    const before = await RfPlain.count();
    const items = range(0, 10).map((i) => ({ name: `n${i}`, topic: i === 2 ? 'bad' : 'ok' }));
    counting.reset();
    const result = await withDamaged(damaged, 'by hand', () => RfPlain.saveMany(items, { chunkSize: 5 }));
    const calls = scriptCalls();
    expect(result.failed.map(({ index }) => index)).toEqual(range(0, 5));
    for (const { error, written, entity } of result.failed) {
      expect(error).toBeInstanceOf(WrongTypeError);
      expect(error).toMatchObject({ key: damaged, expected: 'set', found: 'string' });
      expect(written).toBe(false);
      expect(entity!.isPersisted()).toBe(false);
    }
    expect(result.saved.map(({ name }) => name)).toEqual(range(5, 10).map((i) => `n${i}`));
    expect(await RfPlain.count()).toBe(before + 5);
    expect(await RfPlain.count({ topic: 'ok' })).toBe(5);
    // the draw, the refused check, and one check again of the keys the refusal left unchecked (`all` and the
    // 'ok' index key): the second chunk, whose keys are then all checked, sends none of its own
    expect(calls).toBe(3);
    expect(await RfPlain.check()).toMatchObject({ ok: true });
  });

  it('in a window of chunks in flight, fails each chunk that writes a refused key and no other', async () => {
    const bad = [key('RfPlain', 'idx:topic:bad1'), key('RfPlain', 'idx:topic:bad2')];
    const before = await RfPlain.count();
    // chunks of 20: four sent one at a time, then three in flight; 'bad1' in the first chunk, 'bad2' in the
    // ninth, beside a third key the check refusing 'bad2' may not reach
    const topic = (i: number) => (i === 2 ? 'bad1' : i === 165 ? 'bad2' : i >= 160 && i < 180 ? 'late' : 'ok');
    const items = range(0, 300).map((i) => ({ name: `w${i}`, topic: topic(i) }));
    await redis.raw.set(bad[0], 'by hand');
    const result = await withDamaged(bad[1], 'by hand', () => RfPlain.saveMany(items, { chunkSize: 20 })).finally(() =>
      redis.raw.del(bad[0]),
    );
    expect(result.failed.map(({ index }) => index)).toEqual([...range(0, 20), ...range(160, 180)]);
    for (const { index, error } of result.failed) expect(error).toMatchObject({ key: index < 20 ? bad[0] : bad[1], expected: 'set' });
    expect(result.saved).toHaveLength(260);
    expect(await RfPlain.count()).toBe(before + 260);
    expect(await RfPlain.check()).toMatchObject({ ok: true });
  });
});

describe("a bulk create whose sequence or `all` can't be drawn from: the creates fail, the updates are saved", () => {
  let stored: RfHooked[];

  beforeEach(async () => {
    stored = (
      await RfHooked.saveMany([
        { name: 'u1', topic: 't' },
        { name: 'u2', topic: 't' },
      ])
    ).saved;
    stored.forEach((entity, i) => (entity.topic = `moved${i}`));
    RfHooked.updated = [];
  });

  it.each([
    ['seq', { held: 'a hash' }, 'string', 'hash'],
    ['all', 'by hand', 'zset', 'string'],
  ] as const)('%s of another type: WrongTypeError per create item', async (name, value, expected, found) => {
    const damaged = key('RfHooked', name);
    const count = await RfHooked.count();
    const seq = name === 'seq' ? await redis.raw.get(damaged) : null;
    const all = name === 'all' ? await redis.raw.zRangeWithScores(damaged, 0, -1) : [];
    await redis.raw.del(damaged);
    const items = [stored[0], { name: 'new1' }, stored[1], RfHooked.build({ name: 'new2' })];
    const result = await withDamaged(damaged, value, () => RfHooked.saveMany(items)).finally(async () => {
      if (seq !== null) await redis.raw.set(damaged, seq);
      if (all.length > 0) await redis.raw.zAdd(damaged, all);
    });
    expect(result.saved).toEqual([stored[0], stored[1]]);
    expect(RfHooked.updated).toEqual(['u1', 'u2']);
    expect(result.failed.map(({ index }) => index)).toEqual([1, 3]);
    for (const { error, written, entity } of result.failed) {
      expect(error).toBeInstanceOf(WrongTypeError);
      expect(error).toMatchObject({ key: damaged, expected, found });
      expect(written).toBe(false);
      expect(entity!.isPersisted()).toBe(false);
    }
    expect((await RfHooked.findOrFail(stored[0].id!)).topic).toBe('moved0');
    expect((await RfHooked.findOrFail(stored[1].id!)).topic).toBe('moved1');
    expect(await RfHooked.count()).toBe(count);
    expect(await RfHooked.check()).toMatchObject({ ok: true });
  });

  it.each([
    ['the plain path (draw-ids.lua)', 'RfHooked', () => RfHooked.saveMany([stored[0], { name: 'new1' }, stored[1], { name: 'new2' }])],
    ['save-many.lua, for a unique value', 'RfUnique', () => RfUnique.saveMany([{ code: 'c1' }, { code: 'c2' }])],
    ['save-many.lua, for a foreign key', 'RfChild', () => RfChild.saveMany([{ name: 'c1' }, { name: 'c2' }], { chunkSize: 1 })],
    ['save-many.lua, object by object', 'RfLog', () => RfLog.saveMany([{ level: 'x' }, { level: 'y' }])],
  ] as const)('a sequence holding no number, through %s: a clear error per create item, nothing written', async (_, model, call) => {
    const sequence = key(model, 'seq');
    const kept = await redis.raw.get(sequence);
    const count = await redis.raw.zCard(key(model, 'all'));
    await redis.raw.set(sequence, 'abc');
    try {
      const result = await call();
      expect(result.failed.length).toBe(2);
      for (const { error, written } of result.failed) {
        expect(error).toBeInstanceOf(RedisRecordError);
        expect(error.message).toContain(`the id sequence ${sequence} holds no integer`);
        expect(written).toBe(false);
      }
      if (model === 'RfHooked') {
        expect(result.saved).toEqual([stored[0], stored[1]]);
        expect(RfHooked.updated).toEqual(['u1', 'u2']);
      }
      expect(await redis.raw.get(sequence)).toBe('abc');
      expect(await redis.raw.zCard(key(model, 'all'))).toBe(count);
    } finally {
      if (kept) await redis.raw.set(sequence, kept);
      else await redis.raw.del(sequence);
    }
  });
});

describe('a bulk create whose ids would pass 2^53 - 1', () => {
  it.each([
    ['the plain path (draw-ids.lua)', 'RfPlain', () => RfPlain.saveMany([{ name: 'a' }, { name: 'b' }, { name: 'c' }])],
    ['save-many.lua, batched', 'RfUnique', () => RfUnique.saveMany([{ code: 'big-a' }, { code: 'big-b' }, { code: 'big-c' }])],
    ['save-many.lua, object by object', 'RfLog', () => RfLog.saveMany([{ level: 'a' }, { level: 'b' }, { level: 'c' }])],
  ] as const)('through %s: every new item fails, nothing is written and the sequence stays', async (_, model, call) => {
    const sequence = key(model, 'seq');
    const kept = await redis.raw.get(sequence);
    const count = await redis.raw.zCard(key(model, 'all'));
    // room for two more ids: the third would pass 2^53 - 1
    const start = String(Number.MAX_SAFE_INTEGER - 2);
    await redis.raw.set(sequence, start);
    try {
      const result = await call();
      expect(result.saved).toEqual([]);
      expect(result.failed.map(({ index }) => index)).toEqual([0, 1, 2]);
      for (const { error, written } of result.failed) {
        expect(error).toBeInstanceOf(RedisRecordError);
        expect(error.message).toMatch(/past 2\^53 - 1/);
        expect(written).toBe(false);
      }
      expect(await redis.raw.get(sequence)).toBe(start);
      expect(await redis.raw.zCard(key(model, 'all'))).toBe(count);
    } finally {
      if (kept) await redis.raw.set(sequence, kept);
      else await redis.raw.del(sequence);
    }
  });
});

describe('a chunk applied object by object, one of whose new ids has a key of another type', () => {
  it('fails that object alone, as save() of each in turn would; the objects before and after it are stored', async () => {
    await RfLog.create({ level: 'first' });
    const next = Number(await redis.raw.get(key('RfLog', 'seq'))) + 1;
    // the second object's id
    const damaged = key('RfLog', `obj:${next + 1}`);
    const result = await withDamaged(damaged, 'by hand', async () => {
      const saved = await RfLog.saveMany([{ level: 'a' }, { level: 'b' }, { level: 'c' }]);
      expect(await redis.raw.get(damaged)).toBe('by hand');
      return saved;
    });
    expect(result.saved.map(({ id, level }) => [id, level])).toEqual([
      [String(next), 'a'],
      [String(next + 2), 'c'],
    ]);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0]).toMatchObject({ index: 1, written: false });
    expect(result.failed[0].error).toBeInstanceOf(WrongTypeError);
    expect(result.failed[0].error).toMatchObject({ key: damaged, expected: 'hash', found: 'string' });
    expect(result.failed[0].entity!.isPersisted()).toBe(false);
    expect(await RfLog.count()).toBe(3);
    expect(await RfLog.check()).toMatchObject({ ok: true });
  });
});
