import { createHash } from 'crypto';
import { RedisCommands } from '../redis/redis-commands';
import { isCluster, NodeCommands } from '../redis/topology';
import { pruneUnusedFunctions } from './prune-functions';
import { typedScriptError } from '../errors/wrong-type';
import { demotedError } from '../redis/writable-master';
import { luaSource } from './lua-source';

const typedReply = (error: unknown) => typedScriptError(demotedError(error));

/**
 * One Lua script, run with EVALSHA; when the server does not know it yet (NOSCRIPT: first use, restart,
 * failover, SCRIPT FLUSH) it is sent once with EVAL, which also caches it. One round trip in the common case.
 */
export class Script {
  readonly sha: string;

  constructor(
    readonly name: string,
    readonly source: string,
  ) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /**
   * Runs the script; with `map`, resolves to what it makes of the reply (one promise step fewer than a
   * `.then` on the result, which counts on the hottest paths).
   */
  run(client: RedisCommands, keys: string[], args: ReadonlyArray<string | Buffer>): Promise<unknown>;
  run<T>(client: RedisCommands, keys: string[], args: ReadonlyArray<string | Buffer>, map: (reply: unknown) => T): Promise<T>;
  run<T>(client: RedisCommands, keys: string[], args: ReadonlyArray<string | Buffer>, map?: (reply: unknown) => T): Promise<unknown> {
    // A single server takes the command as it is (node-redis's EVALSHA builder costs about 2 us more per call);
    // a cluster client routes evalSha by its first key, and its view names a cross-slot refusal.
    const sent = isCluster(client)
      ? client.evalSha(this.sha, { keys, arguments: args as Array<string | Buffer> })
      : (client as unknown as NodeCommands).sendCommand(['EVALSHA', this.sha, String(keys.length), ...keys, ...args]);
    // a refusal of key-types.lua becomes its WrongTypeError, and a replica's READONLY a ConnectionError, from
    // EVALSHA as from EVAL
    const loadAndRun = (error: unknown): Promise<unknown> => {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) return Promise.reject(typedReply(error));
      return client
        .eval(this.source, { keys, arguments: args as Array<string | Buffer> })
        .catch((failure: unknown) => Promise.reject(typedReply(failure)));
    };
    return map ? sent.then(map, (error: unknown) => loadAndRun(error).then(map)) : sent.catch(loadAndRun);
  }
}

const INCLUDE = /^--!include ([\w-]+\.lua)\s*$/gm;

/**
 * Reads a script from the lua/ folder (through lua-source.ts), inlining `--!include other.lua` lines (shared Lua
 * functions), and keeps only the included functions the script uses.
 */
export function loadScript(file: string): Script {
  const read = (name: string, depth: number): string => {
    if (depth > 4) throw new Error(`${file}: includes nested too deeply`);
    return luaSource(`lua/${name}`).replace(INCLUDE, (_, inner: string) => read(inner, depth + 1));
  };
  return new Script(file, pruneUnusedFunctions(read(file, 0)));
}
