import {
  AfterRemove,
  ArgumentError,
  Attr,
  BaseEntity,
  BeforeRemove,
  BelongsTo,
  HasMany,
  Index,
  Model,
  QueryError,
  RelationError,
  Unique,
} from '../../src';
import { expectIndexesConsistent, expectShardsConsistent } from '../support/index-consistency';
import { expectRelationsConsistent, snapshotKeys } from '../support/relation-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * Model.removeBy(where): every match removed as removeMany removes each (atomically, with its index and unique
 * entries and its relations' onDelete rules), in bounded batches; resolves to the number removed. An empty or
 * missing where is an ArgumentError; removeBy({}, { all: true }) removes every object.
 */

@Model()
class RbItem extends BaseEntity {
  @Attr() @Index() tag!: string;
  @Attr() @Index() n!: number;
  @Attr() @Unique() code?: string;
}

@Model({ shards: 3 })
class RbShardedItem extends BaseEntity {
  @Attr() @Index() tag!: string;
}

@Model({ group: 'rb' })
class RbOwner extends BaseEntity {
  @Attr() @Index() team!: string;
  @HasMany(() => RbNote, { inverse: 'owner', onDelete: 'cascade' }) notes!: HasMany<RbNote>;
  @HasMany(() => RbKeeper, { inverse: 'owner' }) keepers!: HasMany<RbKeeper>; // onDelete 'restrict'
}

@Model({ group: 'rb' })
class RbNote extends BaseEntity {
  @BelongsTo(() => RbOwner) owner!: BelongsTo<RbOwner>;
  ownerId?: string;
  @Attr() text!: string;
}

@Model({ group: 'rb' })
class RbKeeper extends BaseEntity {
  @BelongsTo(() => RbOwner) owner!: BelongsTo<RbOwner>;
  ownerId?: string;
}

const hookCalls: string[] = [];

@Model()
class RbHooked extends BaseEntity {
  @Attr() @Index() tag!: string;

  @BeforeRemove() before(): void {
    hookCalls.push(`before ${this.id} ${String(this.isPersisted())}`);
  }

  @AfterRemove() after(): void {
    hookCalls.push(`after ${this.id} ${String(this.isRemoved())}`);
  }
}

const redis = useTestRedis();

beforeEach(async () => {
  await RbItem.removeBy({}, { all: true });
  await RbShardedItem.removeBy({}, { all: true });
  await RbHooked.removeBy({}, { all: true });
  await RbNote.removeBy({}, { all: true });
  await RbKeeper.removeBy({}, { all: true });
  await RbOwner.removeBy({}, { all: true });
  hookCalls.length = 0;
});

async function items(count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => ({ tag: i % 3 === 0 ? 'old' : 'new', n: i, code: `c${i}` }));
  expect((await RbItem.saveMany(rows)).ok).toBe(true);
}

describe('removeBy', () => {
  it('removes every match across several batches, with its index and unique entries, and counts them', async () => {
    await items(40);
    const old = await RbItem.findIds({ tag: 'old' });
    expect(old).toHaveLength(14);
    expect(await RbItem.removeBy({ tag: 'old' }, { batchSize: 3 })).toBe(14);
    expect(await RbItem.findMany(old)).toEqual(old.map(() => null));
    expect(await RbItem.count()).toBe(26);
    expect(await RbItem.count({ tag: 'old' })).toBe(0);
    // the unique values of the removed objects are free again
    await expect(RbItem.create({ tag: 'x', n: 0, code: 'c0' })).resolves.toBeDefined();
    await expectIndexesConsistent(RbItem, redis.raw, redis.prefix);
  });

  it('takes every where the queries take, and resolves to 0 when nothing matches', async () => {
    await items(10);
    expect(await RbItem.removeBy({ n: { gte: 7 } })).toBe(3);
    expect(await RbItem.removeBy({ OR: [{ n: 0 }, { n: 1 }] })).toBe(2);
    expect(await RbItem.removeBy({ tag: 'none' })).toBe(0);
    expect((await RbItem.findBy({}, { orderBy: { n: 'asc' } })).map((item) => item.n)).toEqual([2, 3, 4, 5, 6]);
  });

  it('removes every object with { all: true } and an empty where', async () => {
    await items(12);
    expect(await RbItem.removeBy({}, { all: true, batchSize: 5 })).toBe(12);
    expect(await RbItem.count()).toBe(0);
    await expectIndexesConsistent(RbItem, redis.raw, redis.prefix);
  });

  it('refuses a missing or empty where, and bad options, with ArgumentError before removing anything', async () => {
    await items(5);
    const before = await snapshotKeys(redis.raw, redis.prefix);
    const refusals: Array<[() => Promise<number>, RegExp]> = [
      [() => RbItem.removeBy({}), /^RbItem\.removeBy: the where is empty; removeBy\(\{\}, \{ all: true \}\) removes every object$/],
      [() => RbItem.removeBy(undefined as never), /^RbItem\.removeBy takes a where \(an object\), got undefined/],
      [() => RbItem.removeBy(null as never), /^RbItem\.removeBy takes a where \(an object\), got null/],
      [() => RbItem.removeBy({}, { all: false }), /the where is empty/],
      [() => RbItem.removeBy({ tag: 'old' }, { all: true }), /all: true takes an empty where/],
      [() => RbItem.removeBy({}, { all: 'yes' } as never), /all must be true or false/],
      [() => RbItem.removeBy({ tag: 'old' }, { batchSize: 0 }), /batchSize must be a whole number from 1 to 10000, got 0/],
      [() => RbItem.removeBy({ tag: 'old' }, { chunkSize: 5 } as never), /chunkSize/],
    ];
    for (const [call, message] of refusals) {
      await expect(call()).rejects.toThrow(ArgumentError);
      await expect(call()).rejects.toThrow(message);
    }
    // a where the queries refuse: QueryError, nothing removed
    await expect(RbItem.removeBy({ tag: undefined })).rejects.toThrow(QueryError);
    await expect(RbItem.removeBy({ code: { gt: 'c1' } } as never)).rejects.toThrow(QueryError);
    expect(await snapshotKeys(redis.raw, redis.prefix)).toEqual(before);
  });

  it('applies onDelete rules: cascades to children, and a restricted object ends the call with its RelationError', async () => {
    const red = await RbOwner.create({ team: 'red' });
    const blue = await RbOwner.create({ team: 'red' });
    const kept = await RbOwner.create({ team: 'green' });
    await red.notes.create({ text: 'r1' });
    await red.notes.create({ text: 'r2' });
    await kept.notes.create({ text: 'k1' });
    expect(await RbOwner.removeBy({ team: 'red' })).toBe(2);
    expect(await RbNote.count()).toBe(1);
    expect(await RbOwner.exists(blue.id)).toBe(false);

    const held = await RbOwner.create({ team: 'green' });
    await held.keepers.create({});
    await expect(RbOwner.removeBy({ team: 'green' })).rejects.toThrow(RelationError);
    expect(await RbOwner.exists(held.id)).toBe(true);
    expect(await RbOwner.exists(kept.id)).toBe(false); // removed with its batch: each object on its own
    await expectRelationsConsistent([RbOwner, RbNote, RbKeeper], redis.raw, redis.prefix);
  });

  it('runs the remove hooks of each object, as remove() does', async () => {
    const [a, b] = await Promise.all([RbHooked.create({ tag: 'h' }), RbHooked.create({ tag: 'h' })]);
    await RbHooked.create({ tag: 'other' });
    expect(await RbHooked.removeBy({ tag: 'h' })).toBe(2);
    expect(hookCalls.sort()).toEqual([`after ${a.id} true`, `after ${b.id} true`, `before ${a.id} true`, `before ${b.id} true`].sort());
  });

  it('removes the matches of every shard of a sharded model, and works in a tenant scope', async () => {
    expect((await RbShardedItem.saveMany(Array.from({ length: 30 }, (_, i) => ({ tag: i % 2 ? 'odd' : 'even' })))).ok).toBe(true);
    expect(await RbShardedItem.removeBy({ tag: 'odd' }, { batchSize: 4 })).toBe(15);
    expect(await RbShardedItem.count({ tag: 'odd' })).toBe(0);
    expect(await RbShardedItem.count()).toBe(15);
    await expectShardsConsistent(RbShardedItem, redis.raw, redis.prefix);

    const acme = RbItem.scope('acme');
    await acme.create({ tag: 'old', n: 1 });
    await RbItem.create({ tag: 'old', n: 1 });
    expect(await acme.removeBy({ tag: 'old' })).toBe(1);
    expect(await RbItem.count({ tag: 'old' })).toBe(1);
    await acme.drop();
  });

  it('takes the where types: unknown attributes and wrong values fail to compile', async () => {
    await items(3);
    // @ts-expect-error `tga` is not an attribute
    await expect(RbItem.removeBy({ tga: 'old' })).rejects.toThrow(QueryError);
    // @ts-expect-error n is a number
    await expect(RbItem.removeBy({ n: 'x' })).rejects.toThrow(QueryError);
    // @ts-expect-error a where is required
    await expect(RbItem.removeBy()).rejects.toThrow(ArgumentError);
    expect(await RbItem.count()).toBe(3);
  });
});
