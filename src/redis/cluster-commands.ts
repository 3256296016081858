import { CrossSlotError, RedisRecordError } from '../errors/errors';
import { ClusterClient, everyMaster, isCluster, NodeCommands, scanKeys, unlinkKeys } from './topology';

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
      throw new RedisRecordError(`${method}: this cluster client has no getNodeClientForKey (the node-redis 6 cluster client has it)`);
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
  return new CrossSlotError(
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
