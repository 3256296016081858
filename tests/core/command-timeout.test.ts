import { ArgumentError, Attr, BaseEntity, connect, ConnectionError, disconnect, Model } from '../../src';
import { PrivateRedis, startPrivateRedis } from '../../tools/private-redis';
import { uniquePrefix } from '../support/test-redis';

/**
 * connect({ commandTimeoutMs }): an operation issued while the connection is down waits for redis-record to
 * reconnect; by default as long as that takes, with a limit at most that long before it fails. An operation
 * already sent waits for its reply either way. This file runs its own redis-server, which it stops and starts.
 */

@Model()
class TimedNote extends BaseEntity {
  @Attr() body!: string;
}

const prefix = uniquePrefix('timeout');
let redis: PrivateRedis;

beforeAll(async () => {
  redis = await startPrivateRedis();
});
afterAll(async () => {
  await disconnect();
  await redis.stop();
});

it('refuses a limit that is not a whole number of ms from 0 to 2^31 - 1 (the longest timer Node arms)', async () => {
  for (const commandTimeoutMs of [-1, 1.5, Number.NaN, 2 ** 31, 2 ** 32, Number.MAX_SAFE_INTEGER]) {
    await expect(connect({ url: redis.url, prefix, commandTimeoutMs })).rejects.toBeInstanceOf(ArgumentError);
  }
});

it('the longest limit, 2^31 - 1 ms (about 24.8 days), waits out a short outage', async () => {
  const port = redis.port;
  await connect({ url: redis.url, prefix, commandTimeoutMs: 2 ** 31 - 1 });
  const note = await TimedNote.create({ body: 'kept waiting' });
  await redis.stop();
  const waiting = TimedNote.exists(note.id);
  await new Promise((resolve) => setTimeout(resolve, 300));
  redis = await startPrivateRedis([], port); // an empty server (no persistence): exists() answers false
  await expect(waiting).resolves.toBe(false);
  await disconnect();
});

it('while Redis is down: with a limit an operation fails once it has passed; without one it waits for the reconnection', async () => {
  const port = redis.port;
  await connect({ url: redis.url, prefix, commandTimeoutMs: 200 });
  const note = await TimedNote.create({ body: 'first' });
  await redis.stop();
  // Redis stays down until it settles: an operation waiting for the reconnection would never settle here
  const error = await TimedNote.exists(note.id).catch((caught: unknown) => caught);
  // never sent: a ConnectionError, node-redis's own TimeoutError as its cause
  expect(error).toBeInstanceOf(ConnectionError);
  expect(((error as Error).cause as Error).constructor.name).toBe('TimeoutError');

  redis = await startPrivateRedis([], port);
  await connect({ url: redis.url, prefix });
  await TimedNote.create({ body: 'second' });
  await redis.stop();
  const waiting = TimedNote.count();
  await new Promise((resolve) => setTimeout(resolve, 300));
  redis = await startPrivateRedis([], port); // an empty server (no persistence): the count comes from it
  await expect(waiting).resolves.toBe(0);
});
