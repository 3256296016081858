import { createClient } from 'redis';
import { Connection, setCurrentConnection } from '../redis/connection';
import { RedisCommands } from '../redis/redis-commands';
import { redactSecrets, redactUrl } from '../redis/redact-url';
import { allScripts } from '../store/scripts';
import { onSchemaChange, registerAgain, registerModels } from '../schema/first-use';
import { commandsFor } from '../redis/cluster-commands';
import { CheckedConnectOptions, checkConnectOptions, ConnectOptions, ConnectTarget } from './connect-options';
import { connectFailure, firstConnect } from '../redis/first-connect';
import { onReconnect } from '../redis/on-reconnect';
import { ClusterOptions, prepareCluster, redactCluster } from '../redis/open-cluster';
import { reconnectStrategy } from '../redis/reconnect';
import { socketOptions } from '../redis/socket-defaults';
import { everyMaster, isCluster } from '../redis/topology';
import { refuseReplica } from '../redis/writable-master';

export { DEFAULT_PREFIX } from './connect-options';
export type { ConnectOptions } from './connect-options';

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
  await setCurrentConnection(undefined)?.release();
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
  const connection = new Connection(commandsFor(client), options.prefix, release);
  if (options.onSchemaChange) onSchemaChange(connection, options.onSchemaChange);
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
  setCurrentConnection(connection);
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

/**
 * Loads every script once, pipelined, on every master, so that each operation is one EVALSHA from its first
 * use. A node that lost its scripts later (restart, a replica promoted by a failover) gets them back through
 * the NOSCRIPT fallback of src/store/script.ts.
 */
async function preloadScripts(client: RedisCommands): Promise<void> {
  if (typeof client.scriptLoad !== 'function') return;
  const load = (node: { scriptLoad(source: string): Promise<string> }) =>
    Promise.all(allScripts().map((script) => node.scriptLoad(script.source)));
  if (isCluster(client)) await everyMaster(client, load);
  else await load(client);
}
