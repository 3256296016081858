import { Attr, BaseEntity, Index, Model, Unique, UniqueConstraintError } from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * A batch of 20,000 items, many chunks: every valid item is stored exactly once with every index entry (every
 * index kind, scoped ones, absent values), the items that collide on a unique value fail alone, ids follow the
 * given order, and removing half of them in one call leaves the rest consistent.
 */

@Model()
class BulkEvent extends BaseEntity {
  @Attr() @Index() kind!: string;
  @Attr() @Index() at!: Date;
  @Attr() @Index() weight!: number;
  @Attr() @Unique() key!: string;
  @Attr() payload?: string;
  @Attr() @Index({ sortable: true }) label?: string;
  @Attr() bucket?: number;
  @Attr() @Index({ scope: 'bucket' }) rank?: number;
  @Attr() @Index({ scope: 'kind', sortable: true }) tag?: string;
}

const redis = useTestRedis();
const N = 20_000;

describe('large batches', () => {
  it('20,000 items: all valid ones stored, in order, consistent; collisions fail alone', async () => {
    // every 1000th item reuses the key of the item before it
    const items = Array.from({ length: N }, (_, i) => ({
      kind: `k${i % 7}`,
      at: new Date(1_700_000_000_000 + i * 1000),
      weight: (i * 37) % 101,
      key: i % 1000 === 999 ? `key${i - 1}` : `key${i}`,
      payload: 'x'.repeat(i % 50),
      // absent values, a NUL byte in a sortable string: edge cases of every index kind
      label: i % 3 === 0 ? undefined : `label ${i % 500}\0${i % 7}`,
      bucket: i % 4 === 0 ? undefined : i % 9,
      rank: i % 6 === 0 ? undefined : i % 1000,
      tag: i % 10 === 0 ? undefined : `tag${i % 13}`,
    }));
    const result = await BulkEvent.saveMany(items, { chunkSize: 700 });
    const collisions = items.map((_, i) => i).filter((i) => i % 1000 === 999);
    expect(result.failed.map((failure) => failure.index)).toEqual(collisions);
    expect(result.failed.every((failure) => failure.error instanceof UniqueConstraintError)).toBe(true);
    expect(result.saved).toHaveLength(N - collisions.length);
    const ids = result.saved.map((event) => Number(event.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(await BulkEvent.count()).toBe(result.saved.length);
    expect(await BulkEvent.count({ kind: 'k3' })).toBe(result.saved.filter((event) => event.kind === 'k3').length);
    const sample = result.saved[12_345];
    expect((await BulkEvent.findOneBy({ key: sample.key }))?.id).toBe(sample.id);
    await expectIndexesConsistent(BulkEvent, redis.raw, redis.prefix);

    const half = result.saved.filter((_, i) => i % 2 === 0).map((event) => event.id);
    const removal = await BulkEvent.removeMany(half);
    expect(removal.ok).toBe(true);
    expect(removal.removed).toEqual(half);
    expect(await BulkEvent.count()).toBe(result.saved.length - half.length);
    await expectIndexesConsistent(BulkEvent, redis.raw, redis.prefix);
  });
});
