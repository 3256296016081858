import { Attr, BaseEntity, connect, disconnect, Model } from '../../src';
import { PrivateRedis, startPrivateRedis } from '../../tools/private-redis';
import { uniquePrefix } from '../support/test-redis';

/**
 * withLock settles as `work` did, also when the release of the lock cannot be sent (the connection lost once
 * `work` has finished): the lock then expires by itself after ttlMs. Each test runs its own redis-server,
 * which it stops while the lock is held.
 */

@Model()
class ReleasedStock extends BaseEntity {
  @Attr() left = 0;
}

let redis: PrivateRedis;
beforeEach(async () => {
  redis = await startPrivateRedis();
  // the release waits 200 ms for the lost connection, then fails with node-redis's TimeoutError
  await connect({ url: redis.url, prefix: uniquePrefix('release'), commandTimeoutMs: 200 });
});
afterEach(async () => {
  await disconnect();
  await redis.stop();
});

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (value) => `resolved ${String(value)}`,
    (error: Error) => `rejected ${error.constructor.name}: ${error.message}`,
  );

it('work that saved and returned: withLock resolves to its result, although the release failed', async () => {
  const stock = await ReleasedStock.create({ left: 3 });
  const result = await outcome(
    ReleasedStock.withLock(stock.id, async (item) => {
      item.left -= 1;
      await item.save();
      await redis.stop();
      return 'sold';
    }),
  );
  expect(result).toBe('resolved sold');
});

it("work that threw: withLock rejects with work's error, not the release's", async () => {
  const stock = await ReleasedStock.create({ left: 0 });
  const result = await outcome(
    ReleasedStock.withLock(stock.id, async () => {
      await redis.stop();
      throw new Error('sold out');
    }),
  );
  expect(result).toBe('rejected Error: sold out');
});
