import { randomBytes } from 'crypto';
import { createClient } from 'redis';
import { connect, disconnect } from '../../src';
import { registryKey } from '../../src/schema/schema-registry';
import { PrivateRedis, startPrivateRedis } from '../../tools/private-redis';
import { ApplicationClient, applicationRedis, closeApplicationClient } from './clients/test-client';

export type RawClient = ReturnType<typeof createClient>;

/** A prefix no other test file or run uses. */
export function uniquePrefix(label = 't'): string {
  return `${label}${randomBytes(4).toString('hex')}`;
}

/** Every key under `prefix:` (SCAN, never KEYS). */
export async function keysUnder(raw: RawClient, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of raw.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 })) keys.push(...batch);
  return keys.sort();
}

/**
 * Deletes every key of `prefix` once redis-record is disconnected: those under `prefix:` and the prefix's registry
 * of model definitions, `<prefix>#models`, which lies outside them.
 */
export async function deletePrefix(raw: RawClient, prefix: string): Promise<void> {
  const keys = await keysUnder(raw, prefix);
  for (let i = 0; i < keys.length; i += 500) await raw.del(keys.slice(i, i + 500));
  await raw.del(registryKey(prefix));
}

/**
 * Connects redis-record under a fresh prefix for the test file, gives a raw client for looking at keys,
 * and deletes every key of the prefix afterwards (deletePrefix): a test never touches data it did not create.
 *
 * `ownServer`: the file's tests run scripts that hold Redis for seconds (a cascade over tens of thousands of
 * objects), and Redis answers every other client BUSY once a script has run for 5 s, so on a slow machine
 * they would fail the test file running beside them. Such a file gets a redis-server of its own, stopped
 * after it, when the run's server is the run's private one; on a REDIS_URL given by the user it uses that.
 *
 * Under REDIS_CLIENT=ioredis or iovalkey (test-client.ts) redis-record is given a client of that library,
 * closed after the file's tests; otherwise it opens node-redis from the url.
 */
export function useTestRedis(options: { ownServer?: boolean } = {}): {
  readonly prefix: string;
  readonly raw: RawClient;
} {
  const context = { prefix: uniquePrefix(), raw: undefined as unknown as RawClient };
  let server: PrivateRedis | undefined;
  let application: ApplicationClient | undefined;
  beforeAll(async () => {
    if (options.ownServer && process.env.PRIVATE_RUN_REDIS === '1') server = await startPrivateRedis();
    const url = server?.url ?? process.env.REDIS_URL;
    // No per-command timer (node-redis arms 5 s by default): a consistency check pipelines a command per object,
    // and on a slow machine the last of 20,000 can wait longer than that in the queue. The test's own timeout
    // still bounds a hang.
    context.raw = createClient({ url, commandOptions: { timeout: 0 } });
    await context.raw.connect();
    application = applicationRedis(url ?? 'redis://localhost:6379');
    await connect(application ? { client: application, prefix: context.prefix } : { url, prefix: context.prefix });
  });
  afterAll(async () => {
    await disconnect();
    closeApplicationClient(application);
    await deletePrefix(context.raw, context.prefix);
    await context.raw.close();
    await server?.stop();
  });
  return context;
}

/**
 * For a test file that manages redis-record's connection itself: a raw client connected before its tests, and
 * `freshPrefix(label)`, a prefix of the file whose keys are deleted after all tests (after the last
 * disconnect()).
 */
export function useOwnPrefixes(label: string): { readonly raw: RawClient; freshPrefix(): string } {
  const raw: RawClient = createClient({ url: process.env.REDIS_URL });
  const prefixes: string[] = [];
  beforeAll(async () => {
    await raw.connect();
  });
  afterAll(async () => {
    await disconnect();
    for (const prefix of prefixes) await deletePrefix(raw, prefix);
    await raw.close();
  });
  return {
    raw,
    freshPrefix() {
      const prefix = uniquePrefix(label);
      prefixes.push(prefix);
      return prefix;
    },
  };
}
