import { connectFailure } from '../connect-failure';
import type { Transport } from '../transport';
import { IoCluster, IoRedis } from './ioredis-client';
import { fromIoredisError } from './ioredis-errors';
import { ioredisTransport } from './ioredis-transport';

/**
 * An ioredis or iovalkey client given to connect(): connected if it was made with `lazyConnect` and not connected
 * yet, and left open by disconnect() (it stays the application's). A client still connecting is used as it is:
 * commands wait in its queue until it is ready. A first connection that fails is a ConnectionError, its reason
 * taken from the client's last 'error' event (its connect() rejects with "Connection is closed." alone).
 */
export async function openGivenIoredis(client: IoRedis | IoCluster): Promise<Transport> {
  if (client.status === 'wait') {
    let last: unknown;
    const onError = (error: unknown) => (last = error);
    client.on('error', onError);
    try {
      await client.connect();
    } catch (error) {
      client.disconnect();
      const cause = fromIoredisError(last ?? error);
      throw connectFailure(client.isCluster ? 'cannot reach the Redis Cluster' : 'cannot reach Redis', cause, (message) => message);
    } finally {
      client.off('error', onError);
    }
  }
  return ioredisTransport(client, false);
}
