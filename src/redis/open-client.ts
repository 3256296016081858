import { isIoredis } from './ioredis/ioredis-client';
import { openGivenIoredis } from './ioredis/open-ioredis';
import { isNodeRedis } from './node-redis/node-redis-client';
import { openGivenNodeRedis } from './node-redis/open-node-redis';
import type { Transport } from './transport';

/**
 * The transport of a client the application gives connect() (node-redis, ioredis or iovalkey), connected first if it
 * is not yet; it stays the application's: disconnect() leaves it open.
 */
export async function openGivenClient(client: unknown): Promise<Transport> {
  if (isNodeRedis(client)) return openGivenNodeRedis(client);
  if (isIoredis(client)) return openGivenIoredis(client);
  // connect-options.ts accepts no other client
  throw new Error('connect: unsupported client');
}
