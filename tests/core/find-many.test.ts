import { ArgumentError, Attr, BaseEntity, Model } from '../../src';
import { READS_IN_FLIGHT } from '../../src/entity/bulk/bulk-options';
import { useTestRedis } from '../support/test-redis';
import { useWatchedTransactions } from '../support/watched-connection';

/**
 * findMany reads every id in one transaction: one HGETALL per id, so every object is read at one instant, with
 * one command per object. An object is its hash (with its own id in `#id`), as for find and exists. With
 * `chunkSize`, it reads that many ids per transaction, READS_IN_FLIGHT transactions awaiting Redis at once.
 */

@Model()
class ManyNote extends BaseEntity {
  @Attr() body!: string;
  @Attr() at?: Date;
}

const redis = useTestRedis();

/** The commands of each transaction redis-record sent, in order (name, then the number of arguments after it). */
const transactions: Array<Array<{ command: string; args: string[] }>> = [];

/** Transactions awaiting Redis, and the most there were at once. */
let inFlight = 0;
let mostInFlight = 0;

useWatchedTransactions(
  redis,
  (transaction) => transactions.push(transaction.commands),
  (_, reply) => {
    mostInFlight = Math.max(mostInFlight, ++inFlight);
    return reply.finally(() => inFlight--);
  },
);

const objectKey = (id: string) => `${redis.prefix}:{ManyNote}:obj:${id}`;

/** The ids of the stored notes: note i has body `note i`. */
let stored: string[] = [];

beforeAll(async () => {
  const result = await ManyNote.saveMany(
    Array.from({ length: 60 }, (_, i) => ManyNote.build({ body: `note ${i}`, at: new Date(1_700_000_000_000 + i) })),
  );
  expect(result.ok).toBe(true);
  stored = result.saved.map((note) => String(note.id));
});

beforeEach(() => {
  transactions.splice(0);
  mostInFlight = 0;
});

test('one transaction: one HGETALL per id', async () => {
  const ids = [stored[3], '999', stored[0], stored[3]];
  const found = await ManyNote.findMany(ids);
  expect(found.map((note) => note?.body ?? null)).toEqual(['note 3', null, 'note 0', 'note 3']);
  expect(transactions).toHaveLength(1);
  expect(transactions[0]).toEqual(ids.map((id) => ({ command: 'HGETALL', args: [objectKey(id)] })));
});

test('the attributes come back decoded, as find gives them', async () => {
  const [many] = await ManyNote.findMany([stored[7]]);
  const one = await ManyNote.find(stored[7]);
  expect(many).toBeInstanceOf(ManyNote);
  expect(many!.at).toEqual(new Date(1_700_000_000_007));
  expect({ ...many }).toEqual({ ...one });
});

test('a hash without its own id in `#id` is null, as with find', async () => {
  try {
    await redis.raw.hSet(objectKey('500'), { body: 'stray' });
    await redis.raw.hSet(objectKey('501'), { '#id': '7', body: 'stray' });
    expect(await ManyNote.findMany(['500', stored[1], '501']).then((notes) => notes.map((note) => note?.body ?? null))).toEqual([
      null,
      'note 1',
      null,
    ]);
    expect(await ManyNote.find('501')).toBeNull();
  } finally {
    await redis.raw.del([objectKey('500'), objectKey('501')]);
  }
});

test('an object is its hash: one written outside redis-record, with no `all` entry, is read by find, findMany and exists alike, and check() reports it', async () => {
  await redis.raw.hSet(objectKey('500'), { '#id': '500', body: 'stray' });
  try {
    expect(await ManyNote.findMany(['500', stored[1]]).then((notes) => notes.map((note) => note?.body ?? null))).toEqual([
      'stray',
      'note 1',
    ]);
    expect((await ManyNote.find('500'))?.body).toBe('stray');
    expect(await ManyNote.exists('500')).toBe(true);
    const report = await ManyNote.check();
    expect(report.violations.map((violation) => [violation.kind, violation.id])).toEqual([['orphanHash', '500']]);
  } finally {
    await redis.raw.del(objectKey('500'));
  }
});

test('an id in `all` whose hash is gone is null', async () => {
  const gone = stored[59];
  const fields = await redis.raw.hGetAll(objectKey(gone));
  await redis.raw.del(objectKey(gone));
  try {
    expect(await ManyNote.findMany([gone, stored[58]]).then((notes) => notes.map((note) => note?.body ?? null))).toEqual([null, 'note 58']);
  } finally {
    await redis.raw.hSet(objectKey(gone), fields);
  }
});

test('thousands of ids, present and missing interleaved, in the order given', async () => {
  const ids = Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? stored[i % stored.length] : `${100_000 + i}`));
  const found = await ManyNote.findMany(ids);
  expect(found).toHaveLength(ids.length);
  found.forEach((note, i) => expect(note?.body ?? null).toBe(i % 3 === 0 ? `note ${i % stored.length}` : null));
  expect(transactions).toHaveLength(1);
  expect(transactions[0]).toHaveLength(ids.length);
});

describe('chunkSize', () => {
  test('reads that many ids per transaction, READS_IN_FLIGHT at once, the answers in the order given', async () => {
    const ids = Array.from({ length: 23 }, (_, i) => (i % 4 === 3 ? `${200_000 + i}` : stored[i]));
    const chunked = await ManyNote.findMany(ids, { chunkSize: 5 });
    expect(transactions.map((commands) => commands.map(({ args }) => args[0]))).toEqual(
      [0, 5, 10, 15, 20].map((from) => ids.slice(from, from + 5).map(objectKey)),
    );
    expect(mostInFlight).toBe(READS_IN_FLIGHT);
    const whole = await ManyNote.findMany(ids);
    expect(chunked.map((note) => note && { ...note, id: note.id })).toEqual(whole.map((note) => note && { ...note, id: note.id }));
    expect(chunked.map((note) => note?.body ?? null)).toEqual(ids.map((_, i) => (i % 4 === 3 ? null : `note ${i}`)));
  });

  test('a chunkSize of at least the number of ids sends one transaction', async () => {
    await ManyNote.findMany(stored.slice(0, 10), { chunkSize: 10 });
    expect(transactions).toHaveLength(1);
  });

  test.each([0, -1, 1.5, 10_001, Number.NaN, '5'])('a chunkSize of %p is an ArgumentError, and nothing is sent', async (chunkSize) => {
    await expect(ManyNote.findMany(stored.slice(0, 3), { chunkSize: chunkSize as number })).rejects.toThrow(ArgumentError);
    await expect(ManyNote.findMany(stored.slice(0, 3), { chunkSize: chunkSize as number })).rejects.toThrow(/findMany: chunkSize/);
    expect(transactions).toHaveLength(0);
  });
});
