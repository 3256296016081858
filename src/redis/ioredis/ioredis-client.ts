import type { Argument, Command } from '../transport';

/**
 * The parts of ioredis (5 and later) and iovalkey clients the adapter uses, as structural types: neither library is
 * imported, so an application that uses node-redis installs neither.
 */
type Listener = (...args: never[]) => void;

export interface IoPipeline {
  call(name: string, ...args: Argument[]): IoPipeline;
  callBuffer(name: string, ...args: Argument[]): IoPipeline;
  exec(): Promise<Array<[Error | null, unknown]> | null>;
}

interface IoCommon {
  readonly status: string;
  call(name: string, ...args: Argument[]): Promise<unknown>;
  callBuffer(name: string, ...args: Argument[]): Promise<unknown>;
  multi(): IoPipeline;
  pipeline(): IoPipeline;
  connect(): Promise<unknown>;
  quit(): Promise<unknown>;
  disconnect(): void;
  on(event: string, listener: Listener): unknown;
  off(event: string, listener: Listener): unknown;
}

/** A `Redis` client. */
export interface IoRedis extends IoCommon {
  readonly isCluster: false;
  readonly stream?: {
    prependOnceListener(event: 'close', listener: () => void): unknown;
    prependListener(event: 'error', listener: (error: Error) => void): unknown;
  };
  readonly options: { host?: string; port?: number; path?: string; autoResendUnfulfilledCommands?: boolean; lazyConnect?: boolean };
  flushQueue(error: Error, options?: { offlineQueue?: boolean; commandQueue?: boolean }): void;
}

/** A `Cluster` client. */
export interface IoCluster extends IoCommon {
  readonly isCluster: true;
  readonly slots: Array<string[] | undefined>;
  readonly options: { redisOptions?: { autoResendUnfulfilledCommands?: boolean }; lazyConnect?: boolean };
  nodes(role?: 'all' | 'master' | 'slave'): IoRedis[];
}

/** Whether `client` is an ioredis or iovalkey client or cluster. */
export function isIoredis(client: unknown): client is IoRedis | IoCluster {
  const candidate = client as Partial<IoRedis> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.isCluster === 'boolean' &&
    typeof candidate.call === 'function' &&
    typeof candidate.callBuffer === 'function'
  );
}

/**
 * How a command's name is given to the client. ioredis 5 and 6 find a command's keys whatever its case, but apply
 * their reply transformers (HGETALL to an object, which reorders integer-like fields) to the lower-case name only:
 * upper case keeps the raw reply. iovalkey finds keys by the lower-case name only (an upper-case FCALL would go to a
 * random cluster node and come back MOVED): lower case, but HGETALL, whose reply it would transform.
 */
export type Naming = (name: string) => string;

const upper: Naming = (name) => name.toUpperCase();
const valkey: Naming = (name) => (name.toUpperCase() === 'HGETALL' ? 'HGETALL' : name.toLowerCase());

/** The naming of the library that made `client`: iovalkey's options have neither ioredis 5's nor 6's markers. */
export function namingOf(client: IoRedis | IoCluster): Naming {
  const options = (client.isCluster ? (client.nodes()[0]?.options ?? client.options.redisOptions) : client.options) ?? {};
  const probe: object = client.isCluster ? client.options : options;
  const ioredis = 'protocol' in options || 'disableClientInfo' in options || 'clusterNodeRetryStrategy' in probe;
  return ioredis ? upper : valkey;
}

/** The command split into the name the client is given and its arguments. */
export function split(command: Command, naming: Naming): [string, Argument[]] {
  return [naming(String(command[0])), command.slice(1) as Argument[]];
}

/** `host:port` of one connection. */
export function addressOf(node: IoRedis): string {
  return node.options.path ?? `${node.options.host ?? 'localhost'}:${node.options.port ?? 6379}`;
}
