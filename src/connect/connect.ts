import { Connection, setCurrentConnection } from '../redis/connection';
import { openGivenClient } from '../redis/open-client';
import { openCluster, Opening, openUrl } from '../redis/node-redis/open-node-redis';
import { refuseReplica } from '../redis/writable-master';
import { onSchemaChange, registerAgain, registerModels } from '../schema/first-use';
import { loadLibrary } from '../store/library-loader';
import { CheckedConnectOptions, checkConnectOptions, ConnectOptions } from './connect-options';

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

async function replaceCurrent(options: CheckedConnectOptions, opening: Opening): Promise<Connection> {
  await closeCurrent();
  const connection = new Connection(await opening.open(), options.prefix);
  if (options.onSchemaChange) onSchemaChange(connection, options.onSchemaChange);
  try {
    // the server is checked before anything is written (registerModels writes the model definitions)
    await Promise.all([refuseReplica(connection.transport), connection.fitServer(), loadLibrary(connection.transport)]);
    await registerModels(connection);
  } catch (error) {
    // a client opened for a connection that did not come about is closed, not left behind
    await connection.release().catch(() => undefined);
    throw error;
  }
  // The server may come back without the model definitions (restarted without persistence, a replica promoted):
  // they are written again after each reconnection (first-use.ts), and the server asked again.
  connection.transport.onReconnect(() => {
    connection.reconnected();
    registerAgain(connection);
  });
  setCurrentConnection(connection);
  return connection;
}

/** The client connect() is to use: made now (a bad url fails at once), connected by open(). */
function prepare(options: CheckedConnectOptions): Opening {
  const { target } = options;
  if ('client' in target) return { open: () => openGivenClient(target.client) };
  if ('cluster' in target) return openCluster(target.cluster, options);
  return openUrl(target.url, options);
}
