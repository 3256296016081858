import { createCluster, RedisClusterOptions } from 'redis';
import { connectFailure } from '../connect-failure';
import { redactSecrets } from '../redact-url';
import { firstConnect } from './first-connect';
import { reconnectStrategy as strategy } from './reconnect';
import { socketOptions } from './socket-defaults';

/** node-redis cluster options (`createCluster`): `rootNodes` to discover the cluster from, `defaults` for every node. */
export type ClusterOptions = RedisClusterOptions;

export type OpenedCluster = ReturnType<typeof createCluster>;

interface NodeOptions {
  url?: string;
  password?: string;
  username?: string;
  socket?: Record<string, unknown>;
}

/** Every secret the options carry (URL passwords, `password` fields) masked in `text`. */
export function redactCluster(text: string, options: ClusterOptions): string {
  const nodes = [...((options.rootNodes ?? []) as NodeOptions[]), (options.defaults ?? {}) as NodeOptions];
  let out = text;
  for (const node of nodes) {
    if (node.url) out = redactSecrets(out, node.url);
    if (node.password) out = out.split(node.password).join('***');
  }
  return out;
}

/** A cluster client made from the options of connect({ cluster }), not connected yet. */
export interface PreparedCluster {
  /**
   * Connects it: the cluster must be reachable now (a ConnectionError at once otherwise, its message redacted,
   * the client destroyed); once connected, a node whose connection drops is reconnected with backoff while
   * node-redis follows the topology (MOVED, failover).
   */
  open(): Promise<OpenedCluster>;
}

/**
 * Makes the cluster client, like connect({ url }) makes its client, without connecting it: options node-redis
 * refuses are a ConnectionError before connect() closes the current connection. `options` were checked by
 * connect-options.ts (at least one root node).
 */
export function prepareCluster(
  options: ClusterOptions,
  socket: Record<string, unknown> | undefined,
  commandTimeout: number,
): PreparedCluster {
  let established = false;
  const failure = (what: string, error: unknown) => connectFailure(what, error, (message) => redactCluster(message, options));
  const defaults = (options.defaults ?? {}) as NodeOptions;
  const reconnectStrategy = strategy(() => established);
  const withSocket = (node: NodeOptions) => ({
    ...node,
    socket: { ...socketOptions(socket), ...defaults.socket, ...node.socket, reconnectStrategy },
  });
  let cluster: OpenedCluster;
  try {
    cluster = createCluster({
      ...options,
      rootNodes: (options.rootNodes as NodeOptions[]).map(withSocket),
      // every node's client: redis-record's command timeout (see ConnectOptions.commandTimeoutMs)
      defaults: { commandOptions: { timeout: commandTimeout }, ...withSocket(defaults) },
    } as ClusterOptions) as OpenedCluster;
  } catch (error) {
    throw failure('invalid cluster options', error);
  }
  // Without a listener, a node's connection error would crash the process.
  cluster.on('error', () => undefined);
  return {
    open: () =>
      firstConnect(
        cluster,
        (error) => failure('cannot reach the Redis Cluster', error),
        () => (established = true),
      ),
  };
}
