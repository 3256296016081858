import { createClient } from 'redis';
import { UsageError } from './errors';

function create(url: string) {
  return createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 10_000 } });
}

export type CliClient = ReturnType<typeof create>;

/**
 * One client for the command's lifetime. A command-line tool fails fast: no reconnection, a connect timeout,
 * and the client's own error events swallowed (the failing command reports them, redacted).
 */
export async function openClient(url: string): Promise<CliClient> {
  if (!/^rediss?:\/\//i.test(url)) throw new UsageError('--url must start with redis:// or rediss://');
  const client = create(url);
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    client.destroy();
    throw new Error(`cannot connect to Redis: ${(error as Error).message}`);
  }
  return client;
}
