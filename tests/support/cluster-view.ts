/**
 * The tests' raw node-redis cluster client seen as one server: SCAN over every master, UNLINK per hash tag, key
 * scans on the key's node, SCRIPT LOAD on every master. Test support only: the library itself talks to a cluster
 * through its transport (src/redis).
 */
/** One node client of a cluster, or a standalone client: the commands run on a single server. */
export interface NodeCommands {
  scanIterator(options: { MATCH: string; COUNT: number }): AsyncIterable<string[]>;
  scriptLoad(script: string): Promise<string>;
  unlink(keys: string[]): Promise<number>;
  sendCommand(args: Array<string | Buffer>): Promise<unknown>;
  withTypeMapping(mapping: Record<number, unknown>): NodeCommands;
}

/** The part of a node-redis cluster client (createCluster) that topology-aware code uses. */
export interface ClusterClient {
  readonly masters: ReadonlyArray<{ readonly host?: string; readonly port?: number }>;
  nodeClient(node: unknown): Promise<NodeCommands>;
  getNodeClientForKey?(key: string, isReadonly?: boolean): Promise<NodeCommands>;
  sendCommand(firstKey: string | undefined, isReadonly: boolean | undefined, args: string[]): Promise<unknown>;
  unlink(keys: string[]): Promise<number>;
}

/** Whether `client` is a node-redis cluster client (it has masters and per-node clients). */
export function isCluster(client: unknown): client is ClusterClient {
  const candidate = client as Partial<ClusterClient> | null;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.nodeClient === 'function' && 'masters' in candidate;
}

/**
 * The part of a key Redis Cluster hashes to pick its slot: the text between the first `{` and the first `}`
 * after it when that is not empty, the whole key otherwise. Keys with the same tag share a slot.
 */
export function hashTagOf(key: string): string {
  const open = key.indexOf('{');
  if (open < 0) return key;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

/** Runs `work` on the client of every master (all at once); a standalone client is its own only master. */
export async function everyMaster<T>(client: unknown, work: (node: NodeCommands) => Promise<T>): Promise<T[]> {
  if (!isCluster(client)) return [await work(client as NodeCommands)];
  const nodes = await Promise.all(client.masters.map((master) => client.nodeClient(master)));
  return Promise.all(nodes.map(work));
}

/**
 * SCAN with MATCH over the whole data set: one node's keys after the other on a cluster (the masters as they
 * are when the scan starts), pages as SCAN returns them. Like SCAN, a key written or deleted meanwhile may or
 * may not be seen; a key present throughout is seen at least once.
 */
export async function* scanKeys(client: unknown, options: { MATCH: string; COUNT: number }): AsyncGenerator<string[]> {
  if (!isCluster(client)) {
    yield* (client as NodeCommands).scanIterator(options);
    return;
  }
  for (const master of [...client.masters]) {
    const node = await client.nodeClient(master);
    yield* node.scanIterator(options);
  }
}

/** UNLINK any keys: one command per hash tag on a cluster (keys of one tag share a slot), in parallel. */
export async function unlinkKeys(client: unknown, keys: readonly string[]): Promise<number> {
  if (keys.length === 0) return 0;
  if (!isCluster(client)) return Number(await (client as NodeCommands).unlink([...keys]));
  const byTag = new Map<string, string[]>();
  for (const key of keys) {
    const tag = hashTagOf(key);
    const group = byTag.get(tag);
    if (group) group.push(key);
    else byTag.set(tag, [key]);
  }
  const counts = await Promise.all([...byTag.values()].map((group) => client.unlink(group)));
  return counts.reduce((sum, n) => sum + Number(n), 0);
}

/** A raw command on the node that holds `key` (on a cluster, the master of its slot; MOVED is followed). */
export function commandOn(client: unknown, key: string, args: string[]): Promise<unknown> {
  if (isCluster(client)) return client.sendCommand(key, false, args);
  return (client as NodeCommands).sendCommand(args);
}

/**
 * A cluster client seen as one server: the same object, with the commands a cluster client lacks or routes
 * to one node only replaced by their topology-aware forms (src/redis/topology.ts):
 * - scanIterator(): every master's keys;
 * - zScanIterator / sScanIterator / hScanIterator(key): on the node holding the key (a cluster client has none);
 * - unlink(keys): one UNLINK per hash tag;
 * - scriptLoad(): on every master;
 * - withTypeMapping(): the same view over the mapped client;
 * - evalSha / eval: Redis's refusal of a script touching keys of another slot becomes a CrossSlotError.
 * Every other command is the cluster client's own, routed by its first key. A standalone client is returned
 * as it is, and a view is returned as it is, so commandsFor() can be applied anywhere.
 */
const views = new WeakSet<object>();
const cache = new WeakMap<object, object>();

type Mapping = Record<number, unknown> | undefined;

function keyScanner(cluster: ClusterClient, mapping: Mapping, method: 'zScanIterator' | 'sScanIterator' | 'hScanIterator') {
  return async function* (key: string, options: { COUNT: number }): AsyncGenerator<unknown[]> {
    if (typeof cluster.getNodeClientForKey !== 'function') {
      throw new Error(`${method}: this cluster client has no getNodeClientForKey (the node-redis 6 cluster client has it)`);
    }
    let node = (await cluster.getNodeClientForKey(key, false)) as NodeCommands & Record<string, unknown>;
    if (mapping) node = node.withTypeMapping(mapping) as NodeCommands & Record<string, unknown>;
    const iterate = node[method] as (key: string, options: { COUNT: number }) => AsyncIterable<unknown[]>;
    yield* iterate.call(node, key, options);
  };
}

/** Redis's words when a script reaches a key outside the slot (or node) of its declared keys. */
const CROSS_SLOT = /non local key|do not hash to the same slot|CROSSSLOT/;

function explained(error: unknown): unknown {
  if (!(error instanceof Error) || !CROSS_SLOT.test(error.message)) return error;
  return new Error(
    `an operation needed keys of several hash tags, which one script cannot touch on a Redis Cluster: give related models one group, @Model({ group }) (Redis said: ${error.message})`,
  );
}

function view<T extends object>(target: T, cluster: ClusterClient, mapping: Mapping): T {
  const scripting = target as unknown as Record<'evalSha' | 'eval', (script: string, options: unknown) => Promise<unknown>>;
  const overrides: Record<string | symbol, unknown> = {
    evalSha: (sha: string, options: unknown) => scripting.evalSha(sha, options).catch((error: unknown) => Promise.reject(explained(error))),
    eval: (script: string, options: unknown) => scripting.eval(script, options).catch((error: unknown) => Promise.reject(explained(error))),
    scanIterator: (options: { MATCH: string; COUNT: number }) => scanKeys(cluster, options),
    zScanIterator: keyScanner(cluster, mapping, 'zScanIterator'),
    sScanIterator: keyScanner(cluster, mapping, 'sScanIterator'),
    hScanIterator: keyScanner(cluster, mapping, 'hScanIterator'),
    unlink: (keys: string[]) => unlinkKeys(cluster, keys),
    scriptLoad: async (script: string) => (await everyMaster(cluster, (node) => node.scriptLoad(script)))[0],
    withTypeMapping: (next: Record<number, unknown>) =>
      view((target as unknown as { withTypeMapping(m: Record<number, unknown>): object }).withTypeMapping(next), cluster, next),
  };
  // Methods are bound to the client itself: node-redis keeps private state that a proxy receiver cannot reach.
  const bound = new Map<string | symbol, unknown>();
  const proxy = new Proxy(target, {
    get(object, property) {
      if (property in overrides) return overrides[property];
      const value = Reflect.get(object, property, object);
      if (typeof value !== 'function') return value;
      let fn = bound.get(property);
      if (!fn) bound.set(property, (fn = (value as (...args: unknown[]) => unknown).bind(object)));
      return fn;
    },
  });
  views.add(proxy);
  return proxy;
}

/** The client redis-record works with: a cluster client wrapped as above, anything else unchanged. */
export function commandsFor<T>(client: T): T {
  if (!isCluster(client) || views.has(client as object)) return client;
  let wrapped = cache.get(client as object);
  if (!wrapped) cache.set(client as object, (wrapped = view(client as object, client, undefined)));
  return wrapped as T;
}
