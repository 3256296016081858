import { createClient } from 'redis';
import { ArgumentError, ConnectionError, RedisRecordError } from '../errors/errors';
import { assertValidPrefix } from '../keys/prefix-format';
import { RedisCommands } from './redis-commands';
import { redactSecrets, redactUrl } from './redact-url';
import { allScripts } from '../scripts/scripts';
import type { SchemaStatus } from '../schema/schema-status';
import { registerModels } from '../schema/first-use';
import { commandsFor } from './cluster-commands';
import { ClusterOptions, openCluster } from './open-cluster';
import { reconnectStrategy } from './reconnect';
import { socketOptions } from './socket-defaults';
import { everyMaster, isCluster } from './topology';

export interface ConnectOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://...` for TLS. */
  url?: string;
  /**
   * A Redis Cluster (docs/cluster.md): node-redis `createCluster` options, e.g.
   * `{ rootNodes: [{ url: 'redis://127.0.0.1:7000' }], defaults: { password } }`. Not with `url` or `client`.
   */
  cluster?: ClusterOptions;
  /**
   * An existing node-redis client or cluster client (already connected, or not: it is connected if needed).
   * Left open by disconnect().
   */
  client?: unknown;
  /** Namespace of every key redis-record writes (default `rr`). Must not contain `{` or `}`. */
  prefix?: string;
  /**
   * node-redis socket options for a client redis-record creates from `url`: e.g. `{ ca }` to trust a private
   * certificate authority with `rediss://`, or `connectTimeout`; with `cluster`, for every node. Reconnection is
   * redis-record's own. Its default `writableHighWaterMark` is 1 MiB (Node's is 16 KiB): bulk writes reach the
   * socket whole (socket-defaults.ts); give another value to change it.
   */
  socket?: Record<string, unknown>;
  /**
   * For a client redis-record creates (`url`, `cluster`): how long, in ms, an operation issued while the
   * connection is down waits for it to be re-established before it fails with node-redis's TimeoutError (an
   * operation already sent waits for its reply). Default 0: as long as reconnecting takes (retried with backoff,
   * at most 2 s apart). node-redis's own default of 5000 ms arms a timer for every command, which costs more
   * than the command itself when commands are pipelined (saveMany, concurrent saves): set a limit only if
   * callers must give up while Redis is unreachable.
   */
  commandTimeoutMs?: number;
  /**
   * Called once per model and connection when the model's indexes differ from the definition stored in Redis
   * (see docs/operations.md): the data lacks the added indexes until `Model.reindex()`. Default: one
   * console.warn line.
   */
  onSchemaChange?: (status: SchemaStatus) => void;
}

/** The client and prefix every model uses. */
export class Connection {
  constructor(
    readonly client: RedisCommands,
    readonly prefix: string,
    private readonly close: (() => Promise<void>) | undefined,
    readonly onSchemaChange?: (status: SchemaStatus) => void,
  ) {}

  /** Closes the client if redis-record opened it; a client passed in by the caller stays theirs. */
  async release(): Promise<void> {
    await this.close?.();
  }
}

let current: Connection | undefined;

export const DEFAULT_PREFIX = 'rr';

export async function connect(options: ConnectOptions = {}): Promise<Connection> {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  assertValidPrefix(prefix);
  if ([options.client, options.url, options.cluster].filter((given) => given !== undefined).length > 1) {
    throw new RedisRecordError('connect: pass one of url, cluster and client');
  }
  if (current) await disconnect();

  const commandTimeout = options.commandTimeoutMs ?? 0;
  if (!Number.isSafeInteger(commandTimeout) || commandTimeout < 0) {
    throw new ArgumentError('connect: commandTimeoutMs must be a whole number of ms >= 0 (0: no limit)');
  }
  let connection: Connection;
  if (options.client) {
    const client = options.client as RedisCommands & { isOpen?: boolean; connect?: () => Promise<unknown> };
    if (typeof client.evalSha !== 'function') throw new RedisRecordError('connect: client is not a node-redis client');
    if (client.isOpen === false && client.connect) await client.connect();
    connection = new Connection(commandsFor(client), prefix, undefined, options.onSchemaChange);
  } else if (options.cluster !== undefined) {
    const cluster = await openCluster(options.cluster, options.socket, commandTimeout);
    connection = new Connection(commandsFor(cluster as unknown as RedisCommands), prefix, async () => {
      if (cluster.isOpen) await cluster.close();
    }, options.onSchemaChange);
  } else {
    // The first connection must succeed (or connect() fails at once); after that, a dropped connection is
    // re-established with backoff, and commands issued meanwhile fail with their own errors.
    let established = false;
    const url = options.url ?? 'redis://127.0.0.1:6379';
    // Messages never carry the URL's password, whatever node-redis puts in them.
    const failure = (what: string, error: unknown) =>
      new ConnectionError(redactSecrets(`connect: ${what}: ${(error as Error)?.message ?? String(error)}`, url));
    let client: ReturnType<typeof createClient>;
    try {
      client = createClient({
        url,
        commandOptions: { timeout: commandTimeout },
        socket: {
          ...socketOptions(options.socket),
          reconnectStrategy: reconnectStrategy(() => established),
        },
      });
    } catch (error) {
      throw failure(`invalid url ${redactUrl(url)}`, error);
    }
    // Without a listener, a connection error would crash the process.
    client.on('error', () => undefined);
    try {
      await client.connect();
      established = true;
    } catch (error) {
      client.destroy();
      throw failure('cannot reach Redis', error);
    }
    connection = new Connection(client as unknown as RedisCommands, prefix, async () => {
      if (client.isOpen) await client.close();
    }, options.onSchemaChange);
  }
  await preloadScripts(connection.client);
  await registerModels(connection);
  current = connection;
  return connection;
}

export async function disconnect(): Promise<void> {
  const closing = current;
  current = undefined;
  await closing?.release();
}

/** The current connection; throws ConnectionError when there is none. */
export function activeConnection(): Connection {
  if (!current) throw new ConnectionError('not connected: call connect() first');
  return current;
}

/** The current connection, or undefined (for work that is skipped when there is none). */
export function currentConnection(): Connection | undefined {
  return current;
}

/**
 * Loads every script once, pipelined, on every master, so that each operation is one EVALSHA from its first
 * use. A node that lost its scripts later (restart, a replica promoted by a failover) gets them back through
 * the NOSCRIPT fallback of src/scripts/script.ts.
 */
async function preloadScripts(client: RedisCommands): Promise<void> {
  if (typeof client.scriptLoad !== 'function') return;
  const load = (node: { scriptLoad(source: string): Promise<string> }) => Promise.all(allScripts().map((script) => node.scriptLoad(script.source)));
  if (isCluster(client)) await everyMaster(client, load);
  else await load(client);
}
