import { IsInt, Min } from 'class-validator';
import { Attr, BaseEntity, Index, Model, ValidationError } from '../../src';
import { useCountingConnection } from '../core/support/counting-client';
import { expectIndexesConsistent } from '../support/index-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * saveMany of new objects that need no check before the write (sequence ids, no unique value, foreign key, ttl
 * or cap): one INCRBY draws the ids of the whole call, in the given order, then one MULTI per chunk writes the
 * hashes with their `all` and index entries (every index kind, scoped ones, absent values).
 */

@Model()
class PlainEvent extends BaseEntity {
  @Attr() @Index() kind!: string;
  @Attr() @Index() at!: Date;
  @Attr() @IsInt() @Min(0) @Index() weight!: number;
  @Attr() payload?: string;
  @Attr() @Index({ sortable: true }) label?: string;
  @Attr() bucket?: number;
  @Attr() @Index({ scope: 'bucket' }) rank?: number;
  @Attr() @Index({ scope: 'kind', sortable: true }) tag?: string;
}

const redis = useTestRedis();
const counting = useCountingConnection(redis);

beforeEach(() => counting.reset());

const item = (i: number) => ({
  kind: `k${i % 7}`,
  at: new Date(1_700_000_000_000 + i * 1000),
  weight: (i * 37) % 101,
  payload: 'x'.repeat(i % 50),
  // absent values, a NUL byte in a sortable string: edge cases of every index kind
  label: i % 3 === 0 ? undefined : `label ${i % 500}\0${i % 7}`,
  bucket: i % 4 === 0 ? undefined : i % 9,
  rank: i % 6 === 0 ? undefined : i % 1000,
  tag: i % 10 === 0 ? undefined : `tag${i % 13}`,
});

describe('saveMany of objects that need no check', () => {
  it('draws every id with one INCRBY, in the given order, and writes each chunk with one MULTI', async () => {
    const before = Number((await redis.raw.get(`${redis.prefix}:{PlainEvent}:seq`)) ?? 0);
    const items = Array.from({ length: 5000 }, (_, i) => item(i));
    const result = await PlainEvent.saveMany(items, { chunkSize: 700 });
    expect(result.ok).toBe(true);
    expect(result.saved.map((event) => Number(event.id))).toEqual(items.map((_, i) => before + 1 + i));
    expect(counting.calls.filter((call) => call === 'incrBy')).toHaveLength(1);
    expect(counting.calls.filter((call) => call === 'multi')).toHaveLength(Math.ceil(5000 / 700));
    expect(counting.calls.filter((call) => call === 'evalSha' || call === 'eval')).toEqual([]);
    expect(await PlainEvent.count()).toBe(5000);
    const stored = await PlainEvent.find(result.saved[4321].id);
    expect(stored?.label).toBe(items[4321].label);
    expect(stored?.at).toEqual(items[4321].at);
    expect(await redis.raw.hGet(`${redis.prefix}:{PlainEvent}:obj:${result.saved[0].id}`, '#id')).toBe(result.saved[0].id);
    await expectIndexesConsistent(PlainEvent, redis.raw, redis.prefix);
    // the instances are saved: a change is an update of the stored object, and a saveMany of updates alone
    // draws no id
    result.saved[7].weight = 100;
    result.saved[8].weight = 100;
    counting.reset();
    expect((await PlainEvent.saveMany([result.saved[7], result.saved[8]])).ok).toBe(true);
    expect(counting.calls).not.toContain('incrBy');
    expect(await PlainEvent.count({ weight: 100 })).toBe(2 + items.filter((event, i) => event.weight === 100 && i !== 7 && i !== 8).length);
    await expectIndexesConsistent(PlainEvent, redis.raw, redis.prefix);
  });

  it('writes nothing of an item that fails validation or encoding; one its codec refuses leaves its id unused', async () => {
    const before = Number(await redis.raw.get(`${redis.prefix}:{PlainEvent}:seq`));
    const count = await PlainEvent.count();
    const invalid = { ...item(1), weight: -1 }; // refused by class-validator, before any id is drawn
    const unencodable = { ...item(2), at: new Date(Number.NaN) }; // refused by the Date codec, after the draw
    const result = await PlainEvent.saveMany([item(0), invalid, unencodable, item(3)]);
    expect(result.failed.map((failure) => [failure.index, failure.error instanceof ValidationError, failure.written])).toEqual([
      [1, true, false],
      [2, true, false],
    ]);
    // the three items that reached the write drew three ids; the refused one's is skipped
    expect(result.saved.map((event) => Number(event.id))).toEqual([before + 1, before + 3]);
    expect(Number(await redis.raw.get(`${redis.prefix}:{PlainEvent}:seq`))).toBe(before + 3);
    expect(await redis.raw.exists(`${redis.prefix}:{PlainEvent}:obj:${before + 2}`)).toBe(0);
    expect(await PlainEvent.count()).toBe(count + 2);
    await expectIndexesConsistent(PlainEvent, redis.raw, redis.prefix);
  });
});
