/**
 * What differs between one Redis server and a Redis Cluster, for the few commands where it matters. On a
 * cluster, a command is sent to the master of its first key's slot: right for every keyed command redis-record
 * sends (the keys of one operation share a hash tag, src/keys/model-keys.ts), wrong for the rest:
 * - SCAN lists the keys of one node only: scanKeys() scans every master in turn;
 * - SCRIPT LOAD caches a script on one node only: everyMaster() runs it on each;
 * - UNLINK of keys of several slots is refused (CROSSSLOT): unlinkKeys() sends one UNLINK per hash tag;
 * - a raw command names its routing key: commandOn() takes it, and a standalone client ignores it.
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
