import { randomBytes } from 'crypto';
import { createClient } from 'redis';
import { serverNameOf } from '../../src/redis/server-name';
import { registryKey } from '../../src/schema/schema-registry';
import { redisForRun } from '../../tools/private-redis';

export { redisForRun };

/**
 * A node-redis client as redis-record opens its own: no per-command timeout (node-redis's default arms a timer
 * for every command), so that hand-written code and redis-record run on equal clients.
 */
export const newClient = (url: string) => createClient({ url, commandOptions: { timeout: 0 } });
export type Client = ReturnType<typeof newClient>;

/** A node-redis client on `url`, connected, its errors logged. */
export async function connectedClient(url: string): Promise<Client> {
  const client = newClient(url);
  client.on('error', (error) => console.error('redis client:', error.message));
  await client.connect();
  return client;
}

/** Random hex for fresh key prefixes: each run writes under keys no other run uses. */
export const randomHex = () => randomBytes(4).toString('hex');

/** How the report names the server: REDIS_URL as given, or the private server started for the run. */
export function describeRedis(url: string): string {
  return url === process.env.REDIS_URL ? url : `private redis-server at ${url}`;
}

/** The server and its version, as the reports name them (serverNameOf): `Redis 7.0.15`, `Valkey 8.0.1`. */
export async function serverName(client: Client): Promise<string> {
  return serverNameOf(await client.info('server')) ?? 'Redis unknown';
}

/** Unlinks every key under `prefix:` (SCAN, never KEYS); resolves to how many there were. */
export async function deleteKeys(client: Client, prefix: string): Promise<number> {
  let deleted = 0;
  for await (const keys of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 5000 })) {
    if (keys.length > 0) deleted += await client.unlink(keys);
  }
  return deleted;
}

/**
 * Everything a run left under `prefix` once it is over: the keys under `prefix:` (deleteKeys) and redis-record's
 * registry of the prefix's model definitions, `<prefix>#models`, which lies outside them. Not during a run: a
 * connection registers each model once. Resolves to how many keys there were.
 */
export async function forgetPrefix(client: Client, prefix: string): Promise<number> {
  return (await deleteKeys(client, prefix)) + (await client.unlink(registryKey(prefix)));
}
