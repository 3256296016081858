import { createClient } from 'redis';
import {
  Attr,
  BaseEntity,
  connect,
  ConnectionError,
  disconnect,
  Index,
  Model,
  OutcomeUnknownError,
  RedisRecordError,
  Unique,
} from '../../src';
import { applicationRedis, closeApplicationClient } from '../support/clients/test-client';
import { ReplyDroppingProxy } from '../support/reply-dropping-proxy';
import { deletePrefix, RawClient, uniquePrefix } from '../support/test-redis';

/**
 * Replies lost after Redis applied the write: redis-record talks to Redis through a proxy that cuts the
 * connection before chosen replies (tests/support/reply-dropping-proxy.ts). The write rejects with
 * OutcomeUnknownError; the application retries it as it is; no retry stores an object twice, and none fails.
 */

@Model()
class LrPayment extends BaseEntity {
  @Attr() @Index() batch!: string;
  @Attr() amount!: number;
}

@Model()
class LrMember extends BaseEntity {
  @Attr() @Unique() email!: string;
  @Attr() @Index() batch!: string;
}

@Model()
class LrEvent extends BaseEntity {
  @Attr() @Index() batch!: string;
  @Attr() n!: number;
}

const prefix = uniquePrefix('lost');
let proxy: ReplyDroppingProxy;
let raw: RawClient;
let application: ReturnType<typeof applicationRedis>;

beforeAll(async () => {
  proxy = await ReplyDroppingProxy.start(process.env.REDIS_URL!);
  raw = createClient({ url: process.env.REDIS_URL });
  await raw.connect();
  application = applicationRedis(proxy.url, { quickReconnect: true });
  await connect(application ? { client: application, prefix } : { url: proxy.url, prefix });
});
afterAll(async () => {
  await disconnect();
  closeApplicationClient(application);
  await proxy.close();
  await deletePrefix(raw, prefix);
  await raw.close();
});

/** `write` until it resolves (at most 20 tries); every failure on the way must be a lost connection, typed. */
async function retried<T>(write: () => Promise<T>, failures: unknown[]): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      failures.push(error);
      if (!(error instanceof ConnectionError) || attempt === 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** The ids of a model's stored objects, as Redis lists them. */
async function storedIds(model: string): Promise<string[]> {
  return (await raw.zRange(`${prefix}:{${model}}:all`, 0, -1)).sort();
}

describe('a reply lost after the write was applied', () => {
  it('create with an idempotency key, retried: each object stored once, the retry resolving with it', async () => {
    const failures: unknown[] = [];
    proxy.dropReplies('_transaction', 10);
    const drops = proxy.drops;
    const payments = [];
    for (let i = 0; i < 10; i++) {
      payments.push(await retried(() => LrPayment.create({ batch: 'b1', amount: i }, { idempotencyKey: `pay-${i}` }), failures));
    }
    expect(proxy.drops - drops).toBe(10);
    expect(failures.length).toBe(10);
    expect(failures.every((failure) => failure instanceof OutcomeUnknownError)).toBe(true);
    expect(await LrPayment.count({ batch: 'b1' })).toBe(10);
    expect(payments.map((payment) => payment.amount)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect((await storedIds('LrPayment')).length).toBe(10);
  });

  it.each([
    ['through save-many.lua (a unique value)', LrMember, 'save_many', (i: number) => ({ email: `m${i}@x.io`, batch: 'b2' })],
    ['through a MULTI per chunk', LrEvent, 'EXEC', (i: number) => ({ batch: 'b3', n: i })],
  ] as const)('saveMany %s, retried: isPersisted() exact after the loss, 0 duplicates, no failure', async (_, model, marker, item) => {
    const items = Array.from({ length: 120 }, (_unused, i) => (model as typeof LrEvent).build(item(i) as never));
    const failures: unknown[] = [];
    proxy.dropReplies(marker, 2);
    const drops = proxy.drops;
    const first = await (model as typeof LrEvent).saveMany(items, { chunkSize: 20 }).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(OutcomeUnknownError);
    expect(first).toBeInstanceOf(RedisRecordError);
    // every item Redis stored says so, under the id it keeps
    const name = model === LrMember ? 'LrMember' : 'LrEvent';
    const persisted = items.filter((entity) => entity.isPersisted()).map((entity) => entity.id!);
    expect(persisted.sort()).toEqual(await storedIds(name));
    expect(persisted.length).toBeGreaterThan(0);
    const result = await retried(() => (model as typeof LrEvent).saveMany(items, { chunkSize: 20 }), failures);
    expect(proxy.drops - drops).toBeGreaterThan(0);
    expect(result.failed).toEqual([]);
    expect(items.every((entity) => entity.isPersisted())).toBe(true);
    const ids = await storedIds(name);
    expect(ids.length).toBe(120);
    expect(new Set(items.map((entity) => entity.id)).size).toBe(120);
    expect(ids).toEqual(items.map((entity) => entity.id!).sort());
    expect(await (model as typeof LrEvent).check()).toMatchObject({ ok: true });
  });
});
