import { ArgumentError, Attr, BaseEntity, Index, Model, SortableString, Unique } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * check() and repair() stream through a large model in batches: memory holds one batch at a time. The model is
 * large against the batch sizes (tens of batches), which is what streaming needs; more objects add only time.
 */

@Model()
class IcBulk extends BaseEntity {
  @Attr() @Index() group?: string;
  @Attr() @Index() rank?: number;
  @Attr() @Index({ sortable: true }) name?: SortableString;
  @Attr() @Unique() code?: string;
}

const redis = useTestRedis();
const COUNT = 5_000;

beforeAll(async () => {
  for (let from = 0; from < COUNT; from += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, COUNT - from) }, (_, i) => {
        const n = from + i;
        return IcBulk.create({ group: `g${n % 50}`, rank: n, name: `n${n}` as SortableString, code: `c${n}` });
      }),
    );
  }
}, 300_000);

it(`checks ${COUNT} objects holding at most batchSize of them at once`, async () => {
  const result = await IcBulk.check({ batchSize: 200 });
  expect(result.violations).toEqual([]);
  expect(result.objects).toBe(COUNT);
  expect(result.largestBatch).toBeLessThanOrEqual(200);
  expect(result.largestBatch).toBeGreaterThan(0);
}, 300_000);

it('finds and repairs a few damaged entries among them', async () => {
  const base = `${redis.prefix}:{IcBulk}`;
  await redis.raw.sRem(`${base}:idx:group:g7`, '3008'); // object n = 3007, id 3008
  await redis.raw.hDel(`${base}:uniq:code`, `c${COUNT - 1}`); // the last object's, id COUNT
  await redis.raw.zAdd(`${base}:idx:rank`, { score: 0, value: '999999' });
  const found = await IcBulk.check({ batchSize: 300 });
  expect(found.violations.map((v) => [v.kind, v.id]).sort()).toEqual([
    ['danglingEntry', '999999'],
    ['missingEntry', '3008'],
    ['missingEntry', String(COUNT)],
  ]);
  const repaired = await IcBulk.repair({ batchSize: 300 });
  expect(repaired.fixed).toHaveLength(3);
  expect((await IcBulk.check({ batchSize: 1000 })).ok).toBe(true);
}, 300_000);

it('rejects a batch size that is not a positive integer', async () => {
  await expect(IcBulk.check({ batchSize: 0 })).rejects.toThrow(ArgumentError);
});
