import { Attr, BaseEntity, Index, Model } from '../../src';
import { CREATES_IN_FLIGHT, RAMP_CHUNK_SIZE, RAMP_CHUNKS, SAVE_CHUNK_SIZE } from '../../src/entity/bulk/bulk-options';
import { expectIndexesConsistent } from '../support/index-consistency';
import { useTestRedis } from '../support/test-redis';
import { useWatchedTransactions } from '../support/watched-connection';

/**
 * The send window of a plain bulk create (one MULTI per chunk): a call of more than one chunk first sends
 * RAMP_CHUNKS small chunks one at a time, then its chunks with CREATES_IN_FLIGHT of them awaiting Redis at once.
 */

@Model()
class WindowedPost extends BaseEntity {
  @Attr() @Index() topic!: string;
  @Attr() @Index() createdAt!: Date;
  @Attr() content?: string;
}

const redis = useTestRedis();

/** Each transaction sent, in order: its HSETs (one per object) and the transactions awaiting Redis as it went. */
const sent: Array<{ objects: number; othersInFlight: number }> = [];
let inFlight = 0;

// redis-record's connection watches every transaction it sends
useWatchedTransactions(
  redis,
  () => undefined,
  (transaction, reply) => {
    sent.push({ objects: transaction.commands.filter(({ command }) => command === 'HSET').length, othersInFlight: inFlight++ });
    return reply.finally(() => inFlight--);
  },
);

beforeEach(() => void sent.splice(0));

const posts = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ topic: `t${i % 20}`, createdAt: new Date(1_700_000_000_000 + i), content: `post ${i}` }));

test('small chunks go first, one at a time, then full chunks, CREATES_IN_FLIGHT of them awaiting Redis at once', async () => {
  const n = 2000;
  const result = await WindowedPost.saveMany(posts(n));
  expect(result.ok).toBe(true);
  const ramp = sent.slice(0, RAMP_CHUNKS);
  expect(ramp).toEqual(Array.from({ length: RAMP_CHUNKS }, () => ({ objects: RAMP_CHUNK_SIZE, othersInFlight: 0 })));
  const rest = sent.slice(RAMP_CHUNKS);
  const left = n - RAMP_CHUNKS * RAMP_CHUNK_SIZE;
  expect(rest.map((chunk) => chunk.objects)).toEqual(
    Array.from({ length: Math.ceil(left / SAVE_CHUNK_SIZE) }, (_, i) => Math.min(SAVE_CHUNK_SIZE, left - i * SAVE_CHUNK_SIZE)),
  );
  expect(Math.max(...rest.map((chunk) => chunk.othersInFlight))).toBe(CREATES_IN_FLIGHT - 1);
  expect(inFlight).toBe(0);
  expect(await WindowedPost.count()).toBe(n);
  expect((await WindowedPost.find(result.saved[n - 1].id))?.content).toBe(`post ${n - 1}`);
  await expectIndexesConsistent(WindowedPost, redis.raw, redis.prefix);
});

test('a call of one chunk or less sends one transaction', async () => {
  const result = await WindowedPost.saveMany(posts(SAVE_CHUNK_SIZE));
  expect(result.ok).toBe(true);
  expect(sent).toEqual([{ objects: SAVE_CHUNK_SIZE, othersInFlight: 0 }]);
});

test('with a chunkSize below the small chunks, the first chunks are of that size, one at a time', async () => {
  const result = await WindowedPost.saveMany(posts(100), { chunkSize: 10 });
  expect(result.ok).toBe(true);
  expect(sent.map((chunk) => chunk.objects)).toEqual(Array.from({ length: 10 }, () => 10));
  expect(sent.slice(0, RAMP_CHUNKS).every((chunk) => chunk.othersInFlight === 0)).toBe(true);
  expect(Math.max(...sent.map((chunk) => chunk.othersInFlight))).toBe(CREATES_IN_FLIGHT - 1);
  await expectIndexesConsistent(WindowedPost, redis.raw, redis.prefix);
});
