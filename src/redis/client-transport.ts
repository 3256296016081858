import { isIoredis } from './ioredis/ioredis-client';
import { isNodeRedis } from './node-redis/node-redis-client';

/**
 * Whether connect() can use `client`: a node-redis client or cluster client (`createClient`, `createCluster`), an
 * ioredis (5 and later) `Redis` or `Cluster`, or an iovalkey one, recognised by their shape (none is imported).
 */
export function isSupportedClient(client: unknown): boolean {
  return isNodeRedis(client) || isIoredis(client);
}
