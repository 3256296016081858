import { createClient } from 'redis';
import { connect } from '../../../src';

/**
 * A worker's connection for a kill test: a node-redis client named WORKER_CLIENT_NAME (or `defaultName`), so
 * that the test can wait until Redis has dropped it (and run everything it had sent), made redis-record's
 * connection under WORKER_PREFIX on REDIS_URL.
 */
export async function connectNamedWorker(defaultName: string) {
  const url = process.env.REDIS_URL;
  const prefix = process.env.WORKER_PREFIX;
  if (!url || !prefix) throw new Error('REDIS_URL and WORKER_PREFIX must be set');
  const client = createClient({ url, name: process.env.WORKER_CLIENT_NAME ?? defaultName });
  client.on('error', () => undefined);
  await client.connect();
  await connect({ client, prefix });
  return { client, prefix };
}
