/**
 * The commands redis-record sends, as a structural type: a node-redis client satisfies it, whatever modules,
 * scripts or RESP version it was created with; a node-redis cluster client does through the view of
 * cluster-commands.ts (SCAN over every master, UNLINK per hash tag), which connect() puts in its place.
 */
export interface EvalArguments {
  keys: string[];
  arguments: Array<string | Buffer>;
}

/** A transaction (MULTI/EXEC): queued commands sent in one round trip and applied together. */
export interface RedisTransaction {
  zCard(key: string): RedisTransaction;
  zRem(key: string, member: string): RedisTransaction;
  del(key: string): RedisTransaction;
  zRangeWithScores(key: string, start: number, stop: number): RedisTransaction;
  zCount(key: string, min: string, max: string): RedisTransaction;
  time(): RedisTransaction;
  objectEncoding(key: string): RedisTransaction;
  sortRo(key: string, options: { BY: string; LIMIT: { offset: number; count: number }; GET: string[] }): RedisTransaction;
  exec(): Promise<unknown[]>;
}

/** The commands redis-record sends: a node-redis client has them; a cluster client, through the view of cluster-commands.ts. */
export interface RedisCommands {
  multi(): RedisTransaction;
  evalSha(sha: string, options: EvalArguments): Promise<unknown>;
  eval(script: string, options: EvalArguments): Promise<unknown>;
  exists(key: string): Promise<number>;
  type(key: string): Promise<string>;
  incr(key: string): Promise<number>;
  incrBy(key: string, increment: number): Promise<number>;
  hGet(key: string, field: string): Promise<string | null | undefined>;
  hGetAll(key: string): Promise<unknown>;
  hmGet(key: string, fields: string[]): Promise<unknown[]>;
  scriptLoad(script: string): Promise<string>;
  sIsMember(key: string, member: string): Promise<number | boolean>;
  sMembers(key: string): Promise<unknown>;
  sCard(key: string): Promise<number>;
  zCard(key: string): Promise<number>;
  unlink(keys: string[]): Promise<number>;
  scanIterator(options: { MATCH: string; COUNT: number }): AsyncIterable<string[]>;
  pTTL(key: string): Promise<number>;
}
