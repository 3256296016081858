import { createClient, createCluster } from 'redis';
import { assertFitServer } from '../admin';
import { UsageError } from './errors';

function create(url: string) {
  return createClient({ url, RESP: 2, socket: { reconnectStrategy: false, connectTimeout: 10_000 } });
}

/**
 * The node-redis client (or cluster client) a command works with: the admin functions take it as it is, and
 * scan every master of a cluster themselves. close() closes it.
 */
export interface CliClient {
  /** The node-redis client, handed to the admin functions. */
  readonly redis: unknown;
  close(): Promise<void>;
}

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
  return refuseUnfit({ redis: client, close: () => client.close() });
}

/**
 * The nodes of `--cluster`: `host:port` or `redis[s]://[[user]:password@]host:port` entries separated by commas.
 * A user or password given in one applies to every node of the cluster (node-redis `defaults`).
 */
export function parseClusterNodes(list: string): {
  rootNodes: Array<{ url: string }>;
  defaults: { username?: string; password?: string; tls: boolean };
} {
  const entries = list
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (entries.length === 0) throw new UsageError('--cluster needs at least one node: host:port[,host:port...]');
  const defaults: { username?: string; password?: string; tls: boolean } = { tls: false };
  const rootNodes = entries.map((entry) => {
    const url = /^rediss?:\/\//i.test(entry) ? entry : `redis://${entry}`;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new UsageError(`--cluster: ${JSON.stringify(entry.replace(/\/\/[^/]*@/, '//***@'))} is not host:port or a redis:// URL`);
    }
    if (!parsed.hostname || !parsed.port) throw new UsageError(`--cluster: each node is host:port (got ${JSON.stringify(parsed.host)})`);
    if (parsed.password) defaults.password = decodeURIComponent(parsed.password);
    if (parsed.username && parsed.password) defaults.username = decodeURIComponent(parsed.username);
    else if (parsed.username) defaults.password = decodeURIComponent(parsed.username);
    if (parsed.protocol === 'rediss:') defaults.tls = true;
    return { url };
  });
  return { rootNodes, defaults };
}

/** A cluster client for the command's lifetime: fails fast like openClient, follows MOVED while it runs. */
export async function openClusterClient(list: string): Promise<CliClient> {
  const { rootNodes, defaults } = parseClusterNodes(list);
  const socket = { reconnectStrategy: false as const, connectTimeout: 10_000, ...(defaults.tls ? { tls: true as const } : {}) };
  const cluster = createCluster({
    rootNodes: rootNodes.map((node) => ({ ...node, socket })),
    defaults: { username: defaults.username, password: defaults.password, socket },
  });
  cluster.on('error', () => undefined);
  try {
    await cluster.connect();
  } catch (error) {
    cluster.destroy();
    throw new Error(`cannot connect to the Redis Cluster: ${(error as Error).message}`);
  }
  return refuseUnfit({ redis: cluster, close: () => cluster.close() });
}

/**
 * A server redis-record cannot keep its guarantees on (assertFitServer) is refused, as connect() refuses it: the
 * repairs' scripts would fail part way through their writes. The client is closed then.
 */
async function refuseUnfit(client: CliClient): Promise<CliClient> {
  try {
    await assertFitServer(client.redis);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return client;
}
