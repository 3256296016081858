import { createClient } from 'redis';
import { Attr, BaseEntity, connect, ConnectionError, Counter, disconnect, Index, Model, Persisted, Unique } from '../../src';
import { currentConnection } from '../../src/redis/connection';
import { rawTransaction } from '../../src/redis/raw-transaction';
import { PrivateRedis, startPrivateRedis } from '../../tools/private-redis';
import { uniquePrefix } from '../support/test-redis';

/**
 * The master redis-record is connected to is made a replica (REPLICAOF) while connected: every write path
 * (single objects, bulk calls, scripts, a MULTI) rejects with a ConnectionError that says the server is now a
 * replica, instead of Redis's raw READONLY. This file runs two servers of its own: the demoted one and its new
 * master.
 */

@Model()
class DmNote extends BaseEntity {
  @Attr() text?: string;
}

@Model()
class DmPost extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr() @Unique() slug?: string;
  @Counter() views = 0;
}

let demoted: PrivateRedis;
let other: PrivateRedis;
const prefix = uniquePrefix('demoted');
let note: Persisted<DmNote>;
let post: Persisted<DmPost>;

beforeAll(async () => {
  demoted = await startPrivateRedis();
  other = await startPrivateRedis();
  await connect({ url: demoted.url, prefix });
  note = await DmNote.create({ text: 'a' });
  post = await DmPost.create({ topic: 'redis', slug: 'one' });
  const admin = createClient({ url: demoted.url });
  await admin.connect();
  await admin.sendCommand(['REPLICAOF', '127.0.0.1', String(other.port)]);
  await admin.close();
});

afterAll(async () => {
  await disconnect();
  await demoted.stop();
  await other.stop();
});

async function expectDemoted(write: () => Promise<unknown>): Promise<void> {
  const error = await write().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConnectionError);
  expect((error as Error).message).toMatch(/^the server is now a replica \(READONLY\).*connect to the master/);
}

it.each([
  ['create, no check (create-plain.lua)', () => DmNote.create({ text: 'b' })],
  ['create with indexes (save.lua)', () => DmPost.create({ topic: 'valkey', slug: 'two' })],
  ['save of a change', () => Object.assign(note, { text: 'changed' }).save()],
  ['save of an indexed change', () => Object.assign(post, { topic: 'moved' }).save()],
  ['increment', () => post.increment('views')],
  ['remove (remove-plain.lua)', () => note.remove()],
  ['remove with indexes', () => post.remove()],
  ['saveMany, no check (draw, then a MULTI)', () => DmNote.saveMany([{ text: 'x' }, { text: 'y' }])],
  [
    'saveMany with indexes (save-many.lua)',
    () => DmPost.saveMany([{ topic: 'x', slug: 'x' }]).then(({ failed }) => Promise.reject(failed[0].error)),
  ],
  ['removeMany', () => DmNote.removeMany(['1', '2'])],
  ['a query (temporary keys)', () => DmPost.findBy({ topic: 'redis', slug: 'one' })],
  [
    'a MULTI of writes',
    () => {
      const transaction = rawTransaction(currentConnection()!.client, `${prefix}:{DmNote}:all`);
      transaction.add(['ZADD', `${prefix}:{DmNote}:all`, '9', '9']);
      return transaction.exec();
    },
  ],
])('%s', async (_, write) => {
  await expectDemoted(write as () => Promise<unknown>);
});
