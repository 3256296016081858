import { createClient } from 'redis';
import { Attr, BaseEntity, connect, ConnectionError, disconnect, Index, Model } from '../../src';
import { currentConnection } from '../../src/redis/connection';
import { PrivateRedis, startPrivateRedis } from '../../tools/private-redis';
import { uniquePrefix } from '../support/test-redis';

/**
 * redis-record needs a master: it writes at connect() (the model definitions), in writes and in queries
 * (findBy's temporary keys). connect() to a replica is a ConnectionError, whatever the prefix; it used to
 * connect for a prefix whose definitions were already stored and fail with Redis's READONLY for a new one.
 * This file runs its own master and replica.
 */

@Model()
class ReplicatedNote extends BaseEntity {
  @Attr() @Index() kind?: string;
}

let master: PrivateRedis;
let replica: PrivateRedis;
const known = uniquePrefix('replica');

beforeAll(async () => {
  master = await startPrivateRedis();
  replica = await startPrivateRedis(['--replicaof', '127.0.0.1', String(master.port)]);
  await connect({ url: master.url, prefix: known });
  await ReplicatedNote.saveMany([{ kind: 'a' }, { kind: 'b' }]);
  await disconnect();
  const watch = createClient({ url: replica.url });
  await watch.connect();
  for (let i = 0; i < 200 && (await watch.zCard(`${known}:{ReplicatedNote}:all`)) < 2; i++) await new Promise((r) => setTimeout(r, 25));
  await watch.close();
});
afterAll(async () => {
  await disconnect();
  await replica.stop();
  await master.stop();
});

it('connect() to a replica is a ConnectionError that says to connect to the master, for a known prefix and a new one', async () => {
  for (const prefix of [known, uniquePrefix('replica')]) {
    await connect({ url: master.url, prefix });
    const error = await connect({ url: replica.url, prefix }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/^connect: the server is a replica, not a master .*connect to the master$/);
    expect(currentConnection()).toBeUndefined(); // the previous connection was closed first, as documented
  }
});

it('so is a replica client passed in, which stays open: it is the caller’s', async () => {
  const client = createClient({ url: replica.url });
  await client.connect();
  try {
    await expect(connect({ client, prefix: known })).rejects.toThrow(ConnectionError);
    expect(client.isOpen).toBe(true);
  } finally {
    await client.close();
  }
});

it('the master connects', async () => {
  await connect({ url: master.url, prefix: known });
  expect(await ReplicatedNote.findBy({ kind: 'a' })).toHaveLength(1);
  await disconnect();
});
