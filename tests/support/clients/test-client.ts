/**
 * Which Redis client the suite runs redis-record on: REDIS_CLIENT=node-redis (the default), ioredis or iovalkey.
 * Under ioredis or iovalkey the harness (useTestRedis, useTestCluster, the fault suite) makes the application's
 * client of that library and hands it to connect({ client }); under node-redis it connects as before. The raw
 * clients tests use to look at keys stay node-redis whatever the choice.
 */
export type ClientKind = 'node-redis' | 'ioredis' | 'iovalkey';

const KINDS: readonly ClientKind[] = ['node-redis', 'ioredis', 'iovalkey'];

/** REDIS_CLIENT, checked: a typo must not quietly run the suite on node-redis. */
export function clientKind(): ClientKind {
  const given = process.env.REDIS_CLIENT;
  if (!given) return 'node-redis';
  if ((KINDS as readonly string[]).includes(given)) return given as ClientKind;
  throw new Error(`REDIS_CLIENT must be one of ${KINDS.join(', ')}; got ${JSON.stringify(given)}`);
}

/** What the harness needs of an ioredis or iovalkey `Redis` or `Cluster`. */
export interface ApplicationClient {
  on(event: 'error', listener: (error: Error) => void): unknown;
  quit(): Promise<unknown>;
  disconnect(): void;
}

interface IoLibrary {
  Redis: new (url: string, options?: Record<string, unknown>) => ApplicationClient;
  Cluster: new (nodes: Array<{ host: string; port: number }>, options?: Record<string, unknown>) => ApplicationClient;
}

function library(kind: Exclude<ClientKind, 'node-redis'>): IoLibrary {
  // required only when chosen: the default run loads neither
  return (kind === 'ioredis' ? require('ioredis') : require('iovalkey')) as IoLibrary;
}

/** Options of a client: its CLIENT SETNAME name, and a quick reconnection (a test that restarts Redis). */
export interface ClientOptions {
  readonly name?: string;
  readonly quickReconnect?: boolean;
  readonly connectTimeoutMs?: number;
}

function redisOptions(options: ClientOptions): Record<string, unknown> {
  return {
    ...(options.name ? { connectionName: options.name } : {}),
    ...(options.quickReconnect ? { retryStrategy: (times: number) => Math.min(20 * times, 200) } : {}),
    ...(options.connectTimeoutMs ? { connectTimeout: options.connectTimeoutMs } : {}),
  };
}

/**
 * The application's client for `url` of the chosen library, or undefined under node-redis (then the harness
 * passes the url). Its 'error' events (each reconnection attempt emits one) are heard, as an application would.
 */
export function applicationRedis(url: string, options: ClientOptions = {}): ApplicationClient | undefined {
  const kind = clientKind();
  if (kind === 'node-redis') return undefined;
  const client = new (library(kind).Redis)(url, redisOptions(options));
  client.on('error', () => undefined);
  return client;
}

/** The application's Cluster of the chosen library over `rootNodes`, or undefined under node-redis. */
export function applicationCluster(rootNodes: ReadonlyArray<{ url: string }>): ApplicationClient | undefined {
  const kind = clientKind();
  if (kind === 'node-redis') return undefined;
  const nodes = rootNodes.map(({ url }) => {
    const parsed = new URL(url);
    return { host: parsed.hostname, port: Number(parsed.port || 6379) };
  });
  const client = new (library(kind).Cluster)(nodes, {});
  client.on('error', () => undefined);
  return client;
}

/** Closes an application client after disconnect() (redis-record leaves a given client open). */
export function closeApplicationClient(client: ApplicationClient | undefined): void {
  client?.disconnect();
}
