import { createHash } from 'crypto';
import { readFileSync } from 'fs';
import { join } from 'path';
import { CommandError } from '../errors/command-errors';
import { CrossSlotError } from '../errors/errors';
import { typedScriptError } from '../errors/wrong-type';
import type { RedisCommands } from '../redis/redis-commands';
import { demotedError } from '../redis/writable-master';
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

  /**
   * Runs the script; with `map`, resolves to what it makes of the reply (one promise step fewer than a
   * `.then` on the result, which counts on the hottest paths).
   */
  run(client: RedisCommands, keys: string[], args: ReadonlyArray<string | Buffer>): Promise<unknown>;
  run<T>(client: RedisCommands, keys: string[], args: ReadonlyArray<string | Buffer>, map: (reply: unknown) => T): Promise<T>;
  run<T>(client: RedisCommands, keys: string[], args: ReadonlyArray<string | Buffer>, map?: (reply: unknown) => T): Promise<unknown> {
    const transport = client.transport;
    const sent = transport.send(['EVALSHA', this.sha, String(keys.length), ...keys, ...args], keys[0]);
    // a refusal of key-types.lua becomes its WrongTypeError, and a replica's READONLY a ConnectionError, from
    // EVALSHA as from EVAL
    const loadAndRun = (error: unknown): Promise<unknown> => {
      if (!(error instanceof CommandError) || error.code !== 'NOSCRIPT') return Promise.reject(typedReply(error));
      return transport
        .send(['EVAL', this.source, String(keys.length), ...keys, ...args], keys[0])
        .catch((failure: unknown) => Promise.reject(typedReply(failure)));
    };
    return map ? sent.then(map, (error: unknown) => loadAndRun(error).then(map)) : sent.catch(loadAndRun);
  }
}

/** Redis's words when a script reaches a key outside the slot (or node) of its declared keys. */
const CROSS_SLOT = /non local key|do not hash to the same slot|CROSSSLOT/;

/** A script's refusal as the error it stands for: a key of another slot, another type, a replica's refusal. */
function typedReply(error: unknown): unknown {
  if (error instanceof CommandError && CROSS_SLOT.test(error.message)) {
    return new CrossSlotError(
      `an operation needed keys of several hash tags, which one script cannot touch on a Redis Cluster: give related models one group, @Model({ group }) (Redis said: ${error.message})`,
      { cause: error },
    );
  }
  return typedScriptError(demotedError(error));
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
