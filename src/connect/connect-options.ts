import { isPlainObject } from '../util/plain-object';
import { describeValue } from '../util/describe-value';
import { ArgumentError } from '../errors/errors';
import { assertValidPrefix } from '../keys/prefix-format';
import type { SchemaStatus } from '../schema/schema-status';
import type { ClusterOptions } from '../redis/node-redis/open-cluster';
import { redactUrl } from '../redis/redact-url';
import { isSupportedClient } from '../redis/client-transport';

/**
 * The options of connect(), checked as a whole before the current connection is touched: a call refused for
 * its options opens nothing and closes nothing. Each option is either absent (`undefined`, and only that) or of
 * its kind; anything else is an ArgumentError naming the option and the value, so that a string given for the
 * options, `url: null` or `client: 0` is never read as "no url" and connected to the default server.
 */

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
   * A client the application made and owns: node-redis (`createClient()`, `createCluster()`), ioredis 5 or later
   * (`new Redis(url)`, `new Cluster(nodes)`) or iovalkey, connected or not (it is connected if needed).
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

export const DEFAULT_PREFIX = 'rr';

/** The server connect() opens when given neither `url`, `cluster` nor `client`. */
export const DEFAULT_URL = 'redis://127.0.0.1:6379';

/** Where the connection goes: exactly one of them. */
export type ConnectTarget = { readonly url: string } | { readonly cluster: ClusterOptions } | { readonly client: unknown };

export interface CheckedConnectOptions {
  readonly target: ConnectTarget;
  readonly prefix: string;
  readonly socket: Record<string, unknown> | undefined;
  readonly commandTimeout: number;
  readonly onSchemaChange: ((status: SchemaStatus) => void) | undefined;
}

/** Every option connect() takes: the type makes this list follow ConnectOptions. */
const OPTION_NAMES = Object.keys({
  url: true,
  cluster: true,
  client: true,
  prefix: true,
  socket: true,
  commandTimeoutMs: true,
  onSchemaChange: true,
} satisfies Record<keyof ConnectOptions, true>);

const fail = (message: string) => new ArgumentError(`connect: ${message}`);

/** The options of connect(), checked; ArgumentError for the first one that cannot work. */
export function checkConnectOptions(given: unknown): CheckedConnectOptions {
  const options = optionsObject(given);
  refuseUnknown(options);
  const target = targetOf(options);
  if ('client' in target) refuseOwnClientOptions(options);
  return {
    target,
    prefix: prefixOf(options.prefix),
    socket: socketOf(options.socket),
    commandTimeout: commandTimeoutOf(options.commandTimeoutMs),
    onSchemaChange: onSchemaChangeOf(options.onSchemaChange),
  };
}

/**
 * A plain object (or `{}` for none). A string is the likely mistake, `connect('redis://host:6379')`, so the
 * message says where a URL goes, and shows it with its password masked.
 */
function optionsObject(given: unknown): Record<string, unknown> {
  if (given === undefined) return {};
  if (isPlainObject(given)) return given;
  const shown = typeof given === 'string' ? describeValue(redactUrl(given)) : describeValue(given);
  throw fail(`options must be an object, got ${shown}: a URL goes in the url option, connect({ url: 'redis://host:6379' })`);
}

/** A misspelled option, or a node-redis one such as `host` or `password`, would otherwise be ignored in silence. */
function refuseUnknown(options: Record<string, unknown>): void {
  const unknown = Object.keys(options).find((name) => !OPTION_NAMES.includes(name) && options[name] !== undefined);
  if (unknown !== undefined) {
    throw fail(`unknown option ${JSON.stringify(unknown)} (connect takes ${OPTION_NAMES.join(', ')}; a password goes in the url)`);
  }
}

/**
 * `socket` and `commandTimeoutMs` configure a client redis-record makes. A client passed in was made by the
 * caller, who sets them on it (createClient({ socket, commandOptions: { timeout } })): given with `client`, they
 * would otherwise be ignored in silence.
 */
function refuseOwnClientOptions(options: Record<string, unknown>): void {
  const given = (['socket', 'commandTimeoutMs'] as const).find((name) => options[name] !== undefined);
  if (given === undefined) return;
  const where = given === 'socket' ? 'createClient({ socket })' : 'createClient({ commandOptions: { timeout } })';
  throw fail(`${given} applies to a client made from url or cluster, not to one passed as client: set it on that client, ${where}`);
}

/** The one target given, each checked for its kind first; the default URL only when none of them is given. */
function targetOf(options: Record<string, unknown>): ConnectTarget {
  const url = options.url === undefined ? undefined : urlOf(options.url);
  const cluster = options.cluster === undefined ? undefined : clusterOf(options.cluster);
  const client = options.client === undefined ? undefined : clientOf(options.client);
  const given = (['url', 'cluster', 'client'] as const).filter((name) => options[name] !== undefined);
  if (given.length > 1) throw fail(`pass one of url, cluster and client, not ${given.join(' and ')}`);
  if (cluster) return { cluster };
  if (client) return { client };
  return { url: url ?? DEFAULT_URL };
}

/**
 * A non-empty string, or a URL object (WHATWG `URL`, of any realm), taken as its string form. node-redis
 * parses the string itself; a string it cannot parse is a ConnectionError of connect(), still raised before
 * the current connection is touched.
 */
function urlOf(value: unknown): string {
  if (Object.prototype.toString.call(value) === '[object URL]') return String(value);
  if (typeof value === 'string' && value.trim() !== '') return value;
  throw fail(`url must be a non-empty string such as 'redis://host:6379' (or a URL object), got ${describeValue(value)}`);
}

/** node-redis createCluster options with at least one root node to discover the cluster from. */
function clusterOf(value: unknown): ClusterOptions {
  if (!isPlainObject(value)) {
    const example = "{ rootNodes: [{ url: 'redis://127.0.0.1:7000' }] }";
    throw fail(`cluster must be an object of node-redis createCluster options, e.g. ${example}, got ${describeValue(value)}`);
  }
  const rootNodes = value.rootNodes;
  if (!Array.isArray(rootNodes) || rootNodes.length === 0) {
    throw fail(`cluster.rootNodes must list at least one node, e.g. [{ url: "redis://127.0.0.1:7000" }], got ${describeValue(rootNodes)}`);
  }
  const bad = rootNodes.findIndex((node) => !isPlainObject(node));
  if (bad >= 0) {
    throw fail(
      `cluster.rootNodes[${bad}] must be an object such as { url: 'redis://127.0.0.1:7000' }, got ${describeValue(rootNodes[bad])}`,
    );
  }
  return value as unknown as ClusterOptions;
}

/** A client redis-record can use (redis/client-transport.ts). */
function clientOf(value: unknown): unknown {
  if (!isSupportedClient(value)) {
    throw fail(
      `client must be a node-redis client (createClient(), createCluster()), an ioredis Redis or Cluster, or an iovalkey Redis or Cluster; got ${describeValue(value)}`,
    );
  }
  return value;
}

function prefixOf(value: unknown): string {
  if (value === undefined) return DEFAULT_PREFIX;
  if (typeof value !== 'string') throw fail(`invalid prefix ${describeValue(value)}: a non-empty, well-formed string without { or }`);
  assertValidPrefix(value);
  return value;
}

function socketOf(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw fail(`socket must be an object of node-redis socket options, got ${describeValue(value)}`);
  }
  return value as Record<string, unknown>;
}

/**
 * The longest delay Node's timers take (2^31 - 1 ms, about 24.8 days): node-redis arms one per command with the
 * limit, and Node fires a longer one after 1 ms (2^31) or throws a RangeError (2^32 and more).
 */
const MAX_COMMAND_TIMEOUT_MS = 2 ** 31 - 1;

function commandTimeoutOf(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > MAX_COMMAND_TIMEOUT_MS) {
    throw fail(`commandTimeoutMs must be a whole number of ms from 0 (no limit) to ${MAX_COMMAND_TIMEOUT_MS}, got ${describeValue(value)}`);
  }
  return value;
}

function onSchemaChangeOf(value: unknown): ((status: SchemaStatus) => void) | undefined {
  if (value === undefined || typeof value === 'function') return value as ((status: SchemaStatus) => void) | undefined;
  throw fail(`onSchemaChange must be a function, got ${describeValue(value)}`);
}
