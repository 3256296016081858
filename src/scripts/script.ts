import { createHash } from 'crypto';
import { readFileSync } from 'fs';
import { join } from 'path';
import { RedisCommands } from '../connection/redis-commands';
import { pruneUnusedFunctions } from './prune-functions';

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

  run(client: RedisCommands, keys: string[], args: ReadonlyArray<string | Buffer>): Promise<unknown> {
    const options = { keys, arguments: args as Array<string | Buffer> };
    return client.evalSha(this.sha, options).catch((error: unknown) => {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return client.eval(this.source, options);
    });
  }
}

const LUA_DIR = join(__dirname, 'lua');
const INCLUDE = /^--!include ([\w-]+\.lua)\s*$/gm;

/**
 * Reads a script from the lua/ folder, inlining `--!include other.lua` lines (shared Lua functions), and keeps
 * only the included functions the script uses.
 */
export function loadScript(file: string): Script {
  const read = (name: string, depth: number): string => {
    if (depth > 4) throw new Error(`${file}: includes nested too deeply`);
    return readFileSync(join(LUA_DIR, name), 'utf8').replace(INCLUDE, (_, inner: string) => read(inner, depth + 1));
  };
  return new Script(file, pruneUnusedFunctions(read(file, 0)));
}
