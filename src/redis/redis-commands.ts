/**
 * The commands redis-record sends, as a structural type: a node-redis client satisfies it, whatever modules,
 * scripts or RESP version it was created with; a node-redis cluster client does through the view of
 * cluster-commands.ts (SCAN over every master, UNLINK per hash tag), which connect() puts in its place.
 */
export interface EvalArguments {
  /** The keys the script declares (KEYS), all of one hash tag on a Redis Cluster; the first routes the call. */
  keys: string[];
  /** The script's arguments (ARGV): strings, or Buffers for values sent as raw bytes (lex index members). */
  arguments: Array<string | Buffer>;
}

/** A transaction (MULTI/EXEC): queued commands sent in one round trip and applied together. */
export interface RedisTransaction {
  /** ZCARD: the size of a sorted set (`count()` reads `all` and `exp` together). */
  zCard(key: string): RedisTransaction;
  /** ZRANGE WITHSCORES by rank: a window read takes the first entry of `exp`, the next object due to expire and when (ms). */
  zRangeWithScores(key: string, start: number, stop: number): RedisTransaction;
  /** ZCOUNT: how many members score from `min` to `max`; gives where a query's window sits in its index. */
  zCount(key: string, min: string, max: string): RedisTransaction;
  /** TIME: the server's clock, which expiry is judged by. */
  time(): RedisTransaction;
  /** OBJECT ENCODING: whether a sorted index is a `listpack` or a `skiplist` (only a skiplist is read with SORT_RO). */
  objectEncoding(key: string): RedisTransaction;
  /** SORT_RO: reads the fields of the objects in a window of an index (`GET` patterns), without sorting (`BY nosort`). */
  sortRo(key: string, options: { BY: string; LIMIT: { offset: number; count: number }; GET: string[] }): RedisTransaction;
  /** EXEC: sends the queued commands; resolves to their replies, in order. */
  exec(): Promise<unknown[]>;
}

/** The commands redis-record sends: a node-redis client has them; a cluster client, through the view of cluster-commands.ts. */
export interface RedisCommands {
  /** MULTI: starts a transaction, whose commands are queued until exec(). */
  multi(): RedisTransaction;
  /** EVALSHA: runs a Lua script the server has cached, by its sha1 (the scripts behind saves, removes and queries). */
  evalSha(sha: string, options: EvalArguments): Promise<unknown>;
  /** EVAL: sends and runs a script's source when the server does not have it cached (NOSCRIPT). */
  eval(script: string, options: EvalArguments): Promise<unknown>;
  /** EXISTS: 1 when the key exists, else 0 (the integrity tools ask it of memos). */
  exists(key: string): Promise<number>;
  /** TYPE: the Redis type of a key, `none` when it does not exist (`exists(id)`, and the checks for keys of another type). */
  type(key: string): Promise<string>;
  /** INCR: draws the next sequence id from `seq` (a sharded model's id drawn ahead of its unique-value claims). */
  incr(key: string): Promise<number>;
  /** HGET: one field of a hash (a stored definition, an object's `#id`, the id holding a unique value); null when absent. */
  hGet(key: string, field: string): Promise<string | null | undefined>;
  /** HGETALL: every field of a hash (an object, a memo, `<prefix>#models`); empty when the key does not exist. */
  hGetAll(key: string): Promise<unknown>;
  /** HMGET: some fields of a hash, in the order asked, null for each one absent. */
  hmGet(key: string, fields: string[]): Promise<unknown[]>;
  /** SCRIPT LOAD: caches a script at connect(), on every master of a cluster; resolves to its sha1. */
  scriptLoad(script: string): Promise<string>;
  /** SISMEMBER: whether a set holds a member (many-to-many `has()`, set index entries). */
  sIsMember(key: string, member: string): Promise<number | boolean>;
  /** SMEMBERS: every member of a set (the ids of a many-to-many `ids()` and `list()`). */
  sMembers(key: string): Promise<unknown>;
  /** SCARD: the size of a set (many-to-many `count()`); 0 when the key does not exist. */
  sCard(key: string): Promise<number>;
  /** ZCARD: the size of a sorted set (`count()` of a model whose objects cannot expire, from `all`); 0 when the key does not exist. */
  zCard(key: string): Promise<number>;
  /** UNLINK: deletes keys, freeing their memory in the background (drop(), reindex(), repair()); resolves to how many existed. */
  unlink(keys: string[]): Promise<number>;
  /** SCAN: the key names matching a glob, page by page (every master of a cluster); `COUNT` is a hint per page. */
  scanIterator(options: { MATCH: string; COUNT: number }): AsyncIterable<string[]>;
  /** PTTL: milliseconds an object's hash has left (`ttl()`); -1 without a time to live, -2 when the key does not exist. */
  pTTL(key: string): Promise<number>;
}
