/**
 * The boundary between redis-record and a Redis client: the few operations the library needs. node-redis, ioredis
 * and iovalkey each have an adapter (redis/node-redis, redis/ioredis); nothing above src/redis knows which client is
 * in use.
 *
 * Replies come in RESP2 shapes whatever protocol the client speaks: string, number, null, or arrays of these
 * (Buffers instead of strings with `buffers`). Errors never come as a client's own classes: a Redis error reply is a
 * CommandError (its `code` the reply's first word), a command that was sent and whose reply was lost an
 * OutcomeUnknownError, a command that was not sent a ConnectionError; each holds the client's error as `cause`.
 */
/** One argument of a command: text, or bytes. */
export type Argument = string | Buffer;
/** A command with its arguments, such as `['HGET', key, field]`. */
export type Command = readonly Argument[];

/** Options of one command. */
export interface SendOptions {
  /** Bulk-string replies as Buffers (binary members such as lex index entries) instead of UTF-8 strings. */
  readonly buffers?: boolean;
}

/** One server: a standalone server, or one master of a cluster. */
export interface ServerNode {
  /** `host:port`, for messages. */
  readonly address: string;
  /** One command on this server. */
  send(command: Command, options?: SendOptions): Promise<unknown>;
}

/** What redis-record needs of a Redis client; `connect({ client })` wraps the application's client in one. */
export interface Transport {
  /** Whether this is a Redis Cluster. */
  readonly isCluster: boolean;
  /** One command; on a cluster it goes to the master of `key`'s slot (the client follows MOVED and ASK). */
  send(command: Command, key?: string, options?: SendOptions): Promise<unknown>;
  /**
   * MULTI, the commands, EXEC, in one round trip, on the node of `key` (every key of the commands shares its slot).
   * Resolves to each command's reply in order, a command Redis refused having its CommandError in its place.
   * Rejects when the transaction as a whole did not run (EXECABORT, the connection).
   */
  transaction(commands: readonly Command[], key: string, options?: SendOptions): Promise<unknown[]>;
  /**
   * Many commands written at once, without waiting for replies in between (not atomic); `keys[i]` routes
   * `commands[i]` on a cluster. Resolves to each reply, or the CommandError of a refused command, in order; rejects
   * only when the connection failed.
   */
  pipeline(commands: readonly Command[], keys?: ReadonlyArray<string | undefined>): Promise<unknown[]>;
  /** Every master as it is now (the server itself when standalone): SCAN, FUNCTION LOAD and INFO run on each. */
  masters(): Promise<ServerNode[]>;
  /** WAIT, on the very connection that wrote to `key`'s node: how many replicas acknowledged those writes. */
  waitReplicas(key: string, replicas: number, timeoutMs: number): Promise<number>;
  /** Calls `listener` each time the client (or a node of a cluster) connects again after a drop. Returns what stops it. */
  onReconnect(listener: () => void): () => void;
  /** Stops listening to the client, and closes it when redis-record opened it (a client given by the application stays open). */
  close(): Promise<void>;
}
