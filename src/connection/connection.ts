import { createClient } from 'redis';
import { ConnectionError } from '../errors/errors';
import { RedisCommands } from './redis-commands';
import { redactSecrets, redactUrl } from './redact-url';
import { allScripts } from '../scripts/scripts';
import type { SchemaStatus } from '../schema/schema-status';
import { registerAgain, registerModels } from '../schema/first-use';
import { commandsFor } from './cluster-commands';
import { CheckedConnectOptions, checkConnectOptions, ConnectTarget } from './connect-options';
import { connectFailure, firstConnect } from './first-connect';
import { onReconnect } from './on-reconnect';
import { ClusterOptions, prepareCluster, redactCluster } from './open-cluster';
import { reconnectStrategy } from './reconnect';
import { socketOptions } from './socket-defaults';
import { everyMaster, isCluster } from './topology';
import { refuseReplica } from './writable-master';
import { refuseUnfitServer } from './server-requirements';

export { DEFAULT_PREFIX } from './connect-options';

/**
 * What connect() takes. An option is absent only when it is `undefined`: `null`, `''` or a value of another
 * kind is an ArgumentError (connect-options.ts), as is a name not listed here, rather than a fall back to the
 * default server. With none of `url`, `cluster` and `client`, connect() opens `redis://127.0.0.1:6379`.
 */
export interface ConnectOptions {
  /**
   * `redis://[user:password@]host:port[/db]` or `rediss://...` for TLS: a non-empty string, or a `URL` object
   * (taken as its string form).
   */
  url?: string | URL;
  /**
   * A Redis Cluster (docs/cluster.md): node-redis `createCluster` options, e.g.
   * `{ rootNodes: [{ url: 'redis://127.0.0.1:7000' }], defaults: { password } }`. Not with `url` or `client`.
   */
  cluster?: ClusterOptions;
  /**
   * An existing node-redis client or cluster client (already connected, or not: it is connected if needed).
   * Left open by disconnect(). Its socket options and command timeout are its own: `socket` and
   * `commandTimeoutMs` are refused with it.
   */
  client?: unknown;
  /** Namespace of every key redis-record writes (default `rr`). Must not contain `{` or `}`. */
  prefix?: string;
  /**
   * node-redis socket options for a client redis-record creates from `url` (not with `client`): e.g. `{ ca }` to trust a private
   * certificate authority with `rediss://`, or `connectTimeout`; with `cluster`, for every node. Reconnection is
   * redis-record's own. Its default `writableHighWaterMark` is 1 MiB (Node's is 16 KiB): bulk writes reach the
   * socket whole (socket-defaults.ts); give another value to change it.
   */
  socket?: Record<string, unknown>;
  /**
   * For a client redis-record creates (`url`, `cluster`): how long, in ms, an operation issued while the
   * connection is down waits for it to be re-established before it fails with node-redis's TimeoutError (an
   * operation already sent waits for its reply). A whole number from 0 to 2^31 - 1 (the longest timer Node
   * arms, about 24.8 days). Default 0: as long as reconnecting takes (retried with backoff,
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
    /** The node-redis client commands are sent through; for a cluster, its view of cluster-commands.ts. */
    readonly client: RedisCommands,
    /** Namespace of every key (`connect({ prefix })`, default `rr`). */
    readonly prefix: string,
    private readonly close: (() => Promise<void>) | undefined,
    /** `connect({ onSchemaChange })`; undefined when not given, and a changed model is then reported with console.warn. */
    readonly onSchemaChange?: (status: SchemaStatus) => void,
  ) {}

  /** Whether the server is fit, as last asked (fitServer); undefined until asked, or after a refusal. */
  private fit: Promise<void> | undefined;
  /** When the server is asked, as a refusal's message begins: at connect(), until the client first reconnects. */
  private asking = 'connect';

  /**
   * Resolves once the server is known to be one redis-record can keep its guarantees on
   * (server-requirements.ts), and rejects with the ConnectionError that says why not. Asked at connect(), and
   * again after each reconnection of the client (reconnected), since the server behind the address may have
   * changed; every registration of a model waits for it, so nothing is written on a server found unfit. A
   * refusal is asked again the next time.
   */
  fitServer(): Promise<void> {
    return (this.fit ??= this.askFit(true));
  }

  /**
   * The client has reconnected: the server is asked again. Only a definite refusal counts then; a probe that
   * could not run (a cluster node down in the middle of a failover) is not held against the server, as it was
   * fit before.
   */
  reconnected(): void {
    this.asking = 'after the client reconnected';
    this.fit = this.askFit(false);
    // the refusal is for the operations that wait for it; no one may be waiting yet
    this.fit.catch(() => undefined);
  }

  private askFit(strict: boolean): Promise<void> {
    // a refusal asked again later (strict) still says it came after a reconnection, once there was one
    const asked: Promise<void> = refuseUnfitServer(this.client, this.asking).catch((error: unknown) => {
      if (!strict && !(error instanceof ConnectionError)) return;
      if (this.fit === asked) this.fit = undefined;
      throw error;
    });
    return asked;
  }

  /**
   * Closes the client if redis-record opened it; a client passed in by the caller stays theirs (no longer
   * listened to).
   */
  async release(): Promise<void> {
    await this.close?.();
  }
}

let current: Connection | undefined;

/**
 * Opens the connection every model uses, in place of the current one. The options are checked first, all of
 * them, and the client is made (its url parsed): a call refused there rejects at once and leaves the current
 * connection as it was. Only then, in turn with the other connect() and disconnect() calls, is the current
 * connection closed and the new one opened; a server that cannot be reached leaves none (docs/getting-started.md).
 */
export async function connect(options?: ConnectOptions): Promise<Connection> {
  const checked = checkConnectOptions(options);
  const opening = prepare(checked);
  return inTurn(() => replaceCurrent(checked, opening));
}

/** Closes the current connection (after the connect() and disconnect() calls made before this one). */
export function disconnect(): Promise<void> {
  return inTurn(closeCurrent);
}

/**
 * The last of the connect() and disconnect() calls, settled or not. Each call waits for the one before it, so
 * that two calls made together cannot both open a client while the other one closes what was current: the
 * last call wins, and every client opened is the current one or closed.
 */
let previousCall: Promise<unknown> = Promise.resolve();

function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const call = previousCall.then(work);
  previousCall = call.catch(() => undefined);
  return call;
}

async function closeCurrent(): Promise<void> {
  const closing = current;
  current = undefined;
  await closing?.release();
}

/** A client ready to connect, made before the current connection is touched. */
interface Opening {
  /** Connects it; on failure, nothing is left open. */
  open(): Promise<{ client: RedisCommands; close?: () => Promise<void> }>;
}

async function replaceCurrent(options: CheckedConnectOptions, opening: Opening): Promise<Connection> {
  await closeCurrent();
  const { client, close } = await opening.open();
  let stopWatching = (): void => undefined;
  const release = async () => {
    stopWatching();
    await close?.();
  };
  const connection = new Connection(commandsFor(client), options.prefix, release, options.onSchemaChange);
  try {
    // the server is checked before anything is written (registerModels writes the model definitions)
    await Promise.all([refuseReplica(connection.client), connection.fitServer(), preloadScripts(connection.client)]);
    await registerModels(connection);
  } catch (error) {
    // A client opened for a connection that did not come about is closed, not left behind.
    await connection.release().catch(() => undefined);
    throw error;
  }
  // The server may come back without the model definitions (restarted without persistence, a replica
  // promoted): they are written again after each reconnection (first-use.ts).
  stopWatching = onReconnect(client, () => {
    connection.reconnected();
    registerAgain(connection);
  });
  current = connection;
  return connection;
}

function prepare(options: CheckedConnectOptions): Opening {
  const { target } = options;
  if ('client' in target) return givenClient(target.client);
  if ('cluster' in target) return clusterClient(target.cluster, options);
  return urlClient(target.url, options);
}

/**
 * A client passed in: connected if it is not, and left open by disconnect() (it stays the caller's). A first
 * connection that fails is a ConnectionError at once, whatever the client's reconnect strategy, and leaves the
 * client destroyed, not open, as it was given (firstConnect).
 */
function givenClient(client: Extract<ConnectTarget, { client: unknown }>['client']): Opening {
  return {
    async open() {
      if (client.isOpen !== false || !client.connect) return { client };
      const options = (client as { options?: { url?: unknown } & ClusterOptions }).options;
      const cluster = isCluster(client);
      const redact = (message: string) =>
        cluster && options
          ? redactCluster(message, options)
          : typeof options?.url === 'string'
            ? redactSecrets(message, options.url)
            : message;
      const failure = (error: unknown) => connectFailure(cluster ? 'cannot reach the Redis Cluster' : 'cannot reach Redis', error, redact);
      const connectable = client as typeof client & { connect(): Promise<unknown>; destroy(): void };
      await firstConnect(connectable, failure, () => undefined, !isCluster(client));
      return { client };
    },
  };
}

function clusterClient(cluster: ClusterOptions, options: CheckedConnectOptions): Opening {
  const prepared = prepareCluster(cluster, options.socket, options.commandTimeout);
  return {
    async open() {
      const opened = await prepared.open();
      const close = async () => {
        if (opened.isOpen) await opened.close();
      };
      return { client: opened as unknown as RedisCommands, close };
    },
  };
}

/**
 * The client of `url`. The first connection must succeed (or connect() fails at once); after that, a dropped
 * connection is re-established with backoff, and commands issued meanwhile fail with their own errors.
 * Messages never carry the URL's password, whatever node-redis puts in them.
 */
function urlClient(url: string, options: CheckedConnectOptions): Opening {
  let established = false;
  const failure = (what: string, error: unknown) => connectFailure(what, error, (message) => redactSecrets(message, url));
  let client: ReturnType<typeof createClient>;
  try {
    client = createClient({
      url,
      commandOptions: { timeout: options.commandTimeout },
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
  return {
    async open() {
      await firstConnect(
        client,
        (error) => failure('cannot reach Redis', error),
        () => (established = true),
      );
      const close = async () => {
        if (client.isOpen) await client.close();
      };
      return { client: client as unknown as RedisCommands, close };
    },
  };
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
  const load = (node: { scriptLoad(source: string): Promise<string> }) =>
    Promise.all(allScripts().map((script) => node.scriptLoad(script.source)));
  if (isCluster(client)) await everyMaster(client, load);
  else await load(client);
}
