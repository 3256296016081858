import { Attr, BaseEntity, Index, Model, RedisRecordError, Unique } from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * Sequence ids are decimal integers at any size a number holds exactly: from 10^14 on, Lua's tostring writes
 * `1e+14`, which made two creates one object. Every path that draws ids: create-plain.lua, save.lua,
 * save-many.lua, the plain bulk create (INCRBY from the client) and a sharded model's strided ids.
 */

@Model()
class SqPlain extends BaseEntity {
  @Attr() @Index() name!: string;
}

@Model()
class SqUnique extends BaseEntity {
  @Attr() @Unique() name!: string;
}

@Model({ shards: 4 })
class SqSharded extends BaseEntity {
  @Attr() @Index() name!: string;
}

/** Sharded with a unique value: its creates draw the id from the client (INCR) before the write. */
@Model({ shards: 2 })
class SqShardedUnique extends BaseEntity {
  @Attr() @Unique() name!: string;
}

const redis = useTestRedis();
const START = 10 ** 14;

async function startAt(model: string, value: number): Promise<void> {
  await redis.raw.set(`${redis.prefix}:{${model}}:seq`, String(value));
}

describe('sequence ids from 10^14 on', () => {
  it.each([
    ['create (create-plain.lua)', SqPlain],
    ['create (save.lua)', SqUnique],
  ] as const)('%s: two creates are two objects with decimal ids', async (_, model) => {
    await startAt(model.name, START);
    const first = await model.create({ name: 'first' });
    const second = await model.create({ name: 'second' });
    expect([first.id, second.id]).toEqual([String(START + 1), String(START + 2)]);
    expect(await model.count()).toBe(2);
    expect((await model.findOrFail(first.id!)).name).toBe('first');
    await expectIndexesConsistent(model, redis.raw, redis.prefix);
  });

  it.each([
    ['saveMany (the plain bulk create)', SqPlain],
    ['saveMany (save-many.lua)', SqUnique],
  ] as const)('%s: decimal ids', async (_, model) => {
    await startAt(model.name, 2 * START);
    const { saved } = await model.saveMany([{ name: 'bulk-a' }, { name: 'bulk-b' }]);
    expect(saved.map((entity) => entity.id)).toEqual([String(2 * START + 1), String(2 * START + 2)]);
    expect((await model.findOrFail(saved[1].id)).name).toBe('bulk-b');
  });

  it('a sharded model: strided ids are decimal too', async () => {
    for (let i = 0; i < 4; i++) await SqSharded.create({ name: `near${i}` }); // one per shard: makes their sequences
    const sequences = (await keysUnder(redis.raw, redis.prefix)).filter((key) => key.includes('{SqSharded#') && key.endsWith(':seq'));
    expect(sequences.length).toBe(4);
    for (const key of sequences) await redis.raw.set(key, String(START));
    const created = await Promise.all([0, 1, 2, 3].map((i) => SqSharded.create({ name: `far${i}` })));
    for (const entity of created) {
      expect(entity.id).toMatch(/^[1-9]\d{14}$/);
      expect((await SqSharded.findOrFail(entity.id!)).name).toBe(entity.name);
    }
    expect(new Set(created.map((entity) => entity.id)).size).toBe(4);
  });

  it('past 2^53 - 1 a create fails with a RedisRecordError, writing nothing (the draw is taken back)', async () => {
    const sequence = (model: string) => redis.raw.get(`${redis.prefix}:{${model}}:seq`);
    await startAt('SqPlain', Number.MAX_SAFE_INTEGER);
    const before = await SqPlain.count();
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await SqPlain.create({ name: 'over' }).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(RedisRecordError);
      expect((error as Error).message).toMatch(/past 2\^53 - 1/);
      expect(await sequence('SqPlain')).toBe(String(Number.MAX_SAFE_INTEGER));
    }
    // a bulk create reports it per item, as any refusal of an item
    const bulk = await SqPlain.saveMany([{ name: 'over' }]);
    expect(bulk.failed).toEqual([expect.objectContaining({ index: 0, written: false, error: expect.any(RedisRecordError) })]);
    expect(bulk.failed[0].error.message).toMatch(/past 2\^53 - 1/);
    await startAt('SqUnique', Number.MAX_SAFE_INTEGER);
    const unique = await SqUnique.create({ name: 'over' }).catch((thrown: unknown) => thrown);
    expect(unique).toBeInstanceOf(RedisRecordError);
    expect((unique as Error).message).toMatch(/past 2\^53 - 1/);
    expect(await sequence('SqUnique')).toBe(String(Number.MAX_SAFE_INTEGER));
    expect(await SqPlain.count()).toBe(before);
    await expectIndexesConsistent(SqPlain, redis.raw, redis.prefix);
    await expectIndexesConsistent(SqUnique, redis.raw, redis.prefix);
  });

  it('a sequence holding no integer fails every create with a RedisRecordError naming it, writing nothing', async () => {
    const refused = (error: unknown, sequence: string) => {
      expect(error).toBeInstanceOf(RedisRecordError);
      expect((error as Error).message).toBe(
        `the id sequence ${sequence} holds no integer, so no id can be drawn from it; nothing was written`,
      );
    };
    for (const model of [SqPlain, SqUnique]) {
      const sequence = `${redis.prefix}:{${model.name}}:seq`;
      await redis.raw.set(sequence, 'not a number');
      const before = (await keysUnder(redis.raw, redis.prefix)).sort();
      // create-plain.lua, save.lua; saveMany's draw-ids.lua (the plain bulk create), save-many.lua
      refused(await model.create({ name: 'x' }).catch((thrown: unknown) => thrown), sequence);
      const bulk = await model.saveMany([{ name: 'y' }, { name: 'z' }]);
      expect(bulk.saved).toEqual([]);
      for (const failure of bulk.failed) refused(failure.error, sequence);
      expect(bulk.failed.map((failure) => failure.written)).toEqual([false, false]);
      expect((await keysUnder(redis.raw, redis.prefix)).sort()).toEqual(before);
      expect(await redis.raw.get(sequence)).toBe('not a number');
      await redis.raw.del(sequence);
    }
    // a sharded model with a unique value draws its id from the client before its script
    for (let i = 0; i < 2; i++) await SqShardedUnique.create({ name: `made${i}` });
    const sequences = (await keysUnder(redis.raw, redis.prefix)).filter((key) => key.includes('{SqShardedUnique#') && key.endsWith(':seq'));
    expect(sequences.length).toBe(2);
    for (const key of sequences) await redis.raw.set(key, 'not a number');
    const before = (await keysUnder(redis.raw, redis.prefix)).sort();
    const error = await SqShardedUnique.create({ name: 'sharded' }).catch((thrown: unknown) => thrown);
    expect(
      sequences.some(
        (sequence) =>
          (error as Error).message === `the id sequence ${sequence} holds no integer, so no id can be drawn from it; nothing was written`,
      ),
    ).toBe(true);
    expect(error).toBeInstanceOf(RedisRecordError);
    expect((await keysUnder(redis.raw, redis.prefix)).sort()).toEqual(before);
  });
});
