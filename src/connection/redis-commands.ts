/**
 * The commands redis-record sends, as a structural type: a node-redis client and a node-redis cluster
 * client both satisfy it, whatever modules, scripts or RESP version they were created with.
 */
export interface EvalArguments {
  keys: string[];
  arguments: Array<string | Buffer>;
}

export interface RedisCommands {
  evalSha(sha: string, options: EvalArguments): Promise<unknown>;
  eval(script: string, options: EvalArguments): Promise<unknown>;
  exists(key: string): Promise<number>;
  pTTL(key: string): Promise<number>;
}
