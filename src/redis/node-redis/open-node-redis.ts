import { createClient } from 'redis';
import { connectFailure } from '../connect-failure';
import { redactSecrets, redactUrl } from '../redact-url';
import type { Transport } from '../transport';
import { firstConnect } from './first-connect';
import { isNodeRedisCluster, NodeRedisClient, NodeRedisCluster } from './node-redis-client';
import { nodeRedisTransport } from './node-redis-transport';
import { ClusterOptions, prepareCluster, redactCluster } from './open-cluster';
import { reconnectStrategy } from './reconnect';
import { socketOptions } from './socket-defaults';

/** A client made and not connected yet: open() connects it, and on failure leaves nothing open. */
export interface Opening {
  open(): Promise<Transport>;
}

/** What connect() sets on a client it makes: its socket options, and how long a command may wait for a connection. */
export interface OpenOptions {
  readonly socket?: Record<string, unknown>;
  readonly commandTimeout: number;
}

/**
 * The node-redis client of `url` (RESP2, the protocol Redis's scripts reply in). The first connection must succeed
 * (or connect() fails at once); after it, a dropped connection is made again with backoff. Messages never carry the
 * URL's password, whatever node-redis puts in them. A url node-redis cannot parse fails here, at once.
 */
export function openUrl(url: string, options: OpenOptions): Opening {
  let established = false;
  const failure = (what: string, error: unknown) => connectFailure(what, error, (message) => redactSecrets(message, url));
  let client: ReturnType<typeof createClient>;
  try {
    client = createClient({
      url,
      RESP: 2,
      commandOptions: { timeout: options.commandTimeout },
      socket: { ...socketOptions(options.socket), reconnectStrategy: reconnectStrategy(() => established) },
    });
  } catch (error) {
    throw failure(`invalid url ${redactUrl(url)}`, error);
  }
  // without a listener, a connection error would crash the process
  client.on('error', () => undefined);
  return {
    async open() {
      await firstConnect(
        client,
        (error) => failure('cannot reach Redis', error),
        () => (established = true),
      );
      return nodeRedisTransport(client as unknown as NodeRedisClient, true);
    },
  };
}

/** The node-redis cluster client of connect({ cluster }), as openUrl makes a client. */
export function openCluster(cluster: ClusterOptions, options: OpenOptions): Opening {
  const prepared = prepareCluster(cluster, options.socket, options.commandTimeout);
  return {
    async open() {
      return nodeRedisTransport((await prepared.open()) as unknown as NodeRedisCluster, true);
    },
  };
}

/**
 * A node-redis client given to connect(): connected if it is not, and left open by disconnect() (it stays the
 * application's). A first connection that fails is a ConnectionError at once, whatever the client's reconnect
 * strategy, and leaves the client destroyed, not open, as it was given.
 */
export async function openGivenNodeRedis(client: NodeRedisClient | NodeRedisCluster): Promise<Transport> {
  if (!client.isOpen) {
    const options = (client as { options?: { url?: unknown } & ClusterOptions }).options;
    const cluster = isNodeRedisCluster(client);
    const redact = (message: string) =>
      cluster && options
        ? redactCluster(message, options)
        : typeof options?.url === 'string'
          ? redactSecrets(message, options.url)
          : message;
    const failure = (error: unknown) => connectFailure(cluster ? 'cannot reach the Redis Cluster' : 'cannot reach Redis', error, redact);
    await firstConnect(client, failure, () => undefined, !cluster);
  }
  return nodeRedisTransport(client, false);
}
