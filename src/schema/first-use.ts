import { Connection, currentConnection } from '../redis/connection';
import { ModelDescriptor } from '../model/model-descriptor';
import { allModels } from '../model/model-registry';
import { describeModel } from './describe-model';
import { markStale, registerDefinition, unreadableDefinition } from './schema-registry';
import { compareDefinitions, describeChange, SchemaStatus } from './schema-status';
import { StoredDefinitionError } from './parse-definition';

/** Per connection, per model name: done (true) or the registration under way. */
const registered = new WeakMap<Connection, Map<string, true | Promise<void>>>();

/** Per connection, `connect({ onSchemaChange })` when given: a changed model is otherwise reported with console.warn. */
const listeners = new WeakMap<Connection, (status: SchemaStatus) => void>();

/** Reports the connection's schema changes to `listener` (connect({ onSchemaChange })) instead of console.warn. */
export function onSchemaChange(connection: Connection, listener: (status: SchemaStatus) => void): void {
  listeners.set(connection, listener);
}

/** Per connection, the models whose index change was reported: once, also when registered again. */
const reported = new WeakMap<Connection, Set<string>>();

function report(connection: Connection, status: SchemaStatus): void {
  if (!status.needsReindex && status.moved.length === 0) return;
  let models = reported.get(connection);
  if (!models) reported.set(connection, (models = new Set()));
  if (models.has(status.current.name)) return;
  models.add(status.current.name);
  const listener = listeners.get(connection);
  if (listener) listener(status);
  else console.warn(describeChange(status));
}

async function register(connection: Connection, model: ModelDescriptor): Promise<void> {
  let current;
  try {
    current = describeModel(model);
  } catch {
    return; // a definition error (a relation to a class that is no model): the operation reports it itself
  }
  // nothing is written on a server found unfit (after a reconnection, the server behind the address may be another)
  await connection.fitServer();
  let stored;
  try {
    stored = await registerDefinition(connection.client, connection.prefix, current);
  } catch (error) {
    // A stored definition that cannot be read must not stop the application: say so, once.
    if (!(error instanceof SyntaxError) && !(error instanceof StoredDefinitionError)) throw error;
    console.warn(`redis-record: ${unreadableDefinition(model.name, (error as Error).message)}; run ${model.name}.reindex()`);
    return;
  }
  const status = compareDefinitions(stored, current);
  // this connection's writes will not maintain the stored indexes it does not declare (under the same keys): say
  // so in the registry, before any of them, so that a version declaring them again is told to rebuild them
  if (status.moved.length === 0 && status.dropped.some((name) => !stored?.stale?.includes(name))) {
    await markStale(connection.client, connection.prefix, current);
  }
  report(connection, status);
}

/**
 * The first use of a model on a connection (or connect(), see registerModels) stores its definition (or compares it with the stored one and
 * reports changed indexes through `connect({ onSchemaChange })`, once): one round trip, once per connection
 * and again after each reconnection of its client (registerAgain). Afterwards, and when there is no connection (the operation reports that itself), it returns undefined without touching Redis.
 * A failed registration is tried again by the next operation.
 */
export function schemaPending(model: ModelDescriptor): Promise<void> | undefined {
  const connection = currentConnection();
  return connection && pendingOn(connection, model);
}

function pendingOn(connection: Connection, model: ModelDescriptor): Promise<void> | undefined {
  let models = registered.get(connection);
  if (!models) registered.set(connection, (models = new Map()));
  const state = models.get(model.name);
  if (state === true) return undefined;
  if (state) return state;
  const done = models;
  const pending = register(connection, model).then(
    () => void done.set(model.name, true),
    (error: unknown) => {
      done.delete(model.name);
      throw error;
    },
  );
  models.set(model.name, pending);
  return pending;
}

/**
 * connect() registers every model defined so far, pipelined (one round trip for all), so that their first
 * operations cost nothing extra; models defined later are registered at their first use.
 */
export async function registerModels(connection: Connection): Promise<void> {
  await Promise.all(allModels().map((model) => pendingOn(connection, model)));
}

/**
 * Forgets the registrations of the connection and registers every model again (not awaited): called when its
 * client has reconnected, as the server may have come back without the stored definitions (restarted without
 * persistence, a replica promoted). An operation issued meanwhile waits for its model's registration as at
 * its first use; a registration that fails is tried again by the next operation.
 */
export function registerAgain(connection: Connection): void {
  registered.delete(connection);
  registerModels(connection).catch(() => undefined);
}

/** Runs `work` once the model's definition is registered on the connection (at once after the first time). */
export function afterSchema<T>(model: ModelDescriptor, work: () => Promise<T>): Promise<T> {
  const pending = schemaPending(model);
  return pending ? pending.then(work) : work();
}
