import type { Argument, Command } from '../transport';

/**
 * The parts of node-redis 6 (`redis`) clients the adapter uses, as structural types: nothing of node-redis is
 * imported, so an application's own copy works alike.
 */
type Listener = (...args: never[]) => void;

interface Emitter {
  on(event: string, listener: Listener): unknown;
  off(event: string, listener: Listener): unknown;
}

/** A `createClient` client. */
export interface NodeRedisClient extends Emitter {
  readonly isOpen: boolean;
  readonly isReady: boolean;
  readonly options?: { socket?: { host?: string; port?: number; path?: string } };
  sendCommand(args: Argument[], options?: { chainId?: symbol; typeMapping?: object }): Promise<unknown>;
  connect(): Promise<unknown>;
  close(): Promise<void>;
  destroy(): void;
}

/** One master as a cluster client lists it. */
export interface NodeRedisMaster {
  readonly host: string;
  readonly port: number;
  readonly address?: string;
  readonly client?: NodeRedisClient;
}

/** A `createCluster` client. */
export interface NodeRedisCluster extends Emitter {
  readonly isOpen: boolean;
  readonly masters: readonly NodeRedisMaster[];
  sendCommand(firstKey: string | undefined, isReadonly: boolean | undefined, args: Command, options?: object): Promise<unknown>;
  nodeClient(node: NodeRedisMaster): NodeRedisClient | Promise<NodeRedisClient>;
  getNodeClientForKey(key: string, isReadonly?: boolean): Promise<NodeRedisClient>;
  connect(): Promise<unknown>;
  close(): Promise<void>;
  destroy(): void;
}

/** Whether `client` is a node-redis client or cluster client. */
export function isNodeRedis(client: unknown): client is NodeRedisClient | NodeRedisCluster {
  const candidate = client as Partial<NodeRedisClient & NodeRedisCluster> | null;
  if (typeof candidate !== 'object' || candidate === null) return false;
  return isNodeRedisCluster(candidate) || (typeof candidate.sendCommand === 'function' && 'isReady' in candidate && 'isOpen' in candidate);
}

/** Whether `client` is a node-redis cluster client (it has masters and per-node clients). */
export function isNodeRedisCluster(client: unknown): client is NodeRedisCluster {
  const candidate = client as Partial<NodeRedisCluster> | null;
  return (
    typeof candidate === 'object' && candidate !== null && typeof candidate.getNodeClientForKey === 'function' && 'masters' in candidate
  );
}
