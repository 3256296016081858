import { createClient } from 'redis';
import { Attr, BaseEntity, connect, disconnect, Index, Model } from '../../src';
import { storedDefinitions } from '../../src/admin';
import { PrivateRedis, startPrivateRedis } from '../../tools/private-redis';
import { uniquePrefix } from '../support/test-redis';

/**
 * The model definitions stored in Redis (<prefix>#models, which the command-line tools and storedDefinitions()
 * read) are written by a connection at its first use of each model, and again after its client reconnects: a
 * redis-server without persistence, restarted, comes back empty. This file runs its own redis-server, which it
 * stops and starts again on the same port.
 */

@Model()
class RestartedNote extends BaseEntity {
  @Attr() @Index() kind?: string;
}

let redis: PrivateRedis;
beforeAll(async () => {
  redis = await startPrivateRedis();
});
afterAll(async () => {
  await disconnect();
  await redis.stop();
});

async function restartEmpty(): Promise<void> {
  const port = redis.port;
  await redis.stop();
  redis = await startPrivateRedis([], port);
}

async function storedModelNames(prefix: string): Promise<string[]> {
  const raw = createClient({ url: redis.url });
  await raw.connect();
  try {
    return [...(await storedDefinitions(raw as never, prefix)).keys()];
  } finally {
    await raw.close();
  }
}

it('after Redis restarts empty, the same connection stores the model definitions again', async () => {
  const prefix = uniquePrefix('restart');
  await connect({ url: redis.url, prefix });
  await RestartedNote.create({ kind: 'before' });
  expect(await storedModelNames(prefix)).toContain('RestartedNote');

  await restartEmpty();
  await RestartedNote.create({ kind: 'after' }); // the client reconnects by itself
  expect(await RestartedNote.count({ kind: 'after' })).toBe(1);
  expect(await storedModelNames(prefix)).toContain('RestartedNote');
  await disconnect();
});

it('a client passed in is no longer listened to once disconnected', async () => {
  const client = createClient({ url: redis.url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const listeners = client.listenerCount('ready');
    await connect({ client, prefix: uniquePrefix('restart') });
    expect(client.listenerCount('ready')).toBe(listeners + 1);
    await disconnect();
    expect(client.listenerCount('ready')).toBe(listeners);
  } finally {
    await disconnect();
    await client.close();
  }
});
