import { CommandError } from '../errors/command-errors';
import { CrossSlotError } from '../errors/errors';
import { typedScriptError } from '../errors/wrong-type';
import type { RedisCommands } from '../redis/redis-commands';
import { demotedError } from '../redis/writable-master';
import { functionLibrary, LibraryFunction } from './function-library';
import { loadLibraryAgain } from './library-loader';

/**
 * One function of redis-record's function library (function-library.ts), named by its script, run with FCALL (or
 * FCALL_RO for one that only reads): one round trip. A server that lacks the library (first use, a restart without
 * persistence, FUNCTION FLUSH, a node that joined the cluster) answers "Function not found": the library is loaded
 * on every master, and the call sent once more.
 */
export class Script {
  private entry: LibraryFunction | undefined;

  constructor(
    /** The script's file name without `.lua`: the function is `rr_<version>_<script>`. */
    readonly script: string,
  ) {}

  /** The function's name on the server. */
  get name(): string {
    return this.function().name;
  }

  private function(): LibraryFunction {
    if (this.entry) return this.entry;
    const entry = functionLibrary().functions.get(this.script);
    if (!entry) throw new Error(`no function ${this.script} in the library`);
    return (this.entry = entry);
  }

  /**
   * Runs the function; with `map`, resolves to what it makes of the reply (one promise step fewer than a `.then`
   * on the result, which counts on the hottest paths).
   */
  run(client: RedisCommands, keys: string[], args: ReadonlyArray<string | Buffer>): Promise<unknown>;
  run<T>(client: RedisCommands, keys: string[], args: ReadonlyArray<string | Buffer>, map: (reply: unknown) => T): Promise<T>;
  run<T>(client: RedisCommands, keys: string[], args: ReadonlyArray<string | Buffer>, map?: (reply: unknown) => T): Promise<unknown> {
    const entry = this.function();
    const transport = client.transport;
    const command = [entry.readOnly ? 'FCALL_RO' : 'FCALL', entry.name, String(keys.length), ...keys, ...args];
    const sent = transport.send(command, keys[0]);
    const loadAndRun = (error: unknown): Promise<unknown> => {
      if (!isMissingFunction(error)) return Promise.reject(typedReply(error));
      return loadLibraryAgain(transport)
        .then(() => transport.send(command, keys[0]))
        .catch((failure: unknown) => Promise.reject(typedReply(failure)));
    };
    return map ? sent.then(map, (error: unknown) => loadAndRun(error).then(map)) : sent.catch(loadAndRun);
  }
}

function isMissingFunction(error: unknown): boolean {
  return error instanceof CommandError && error.message.includes('Function not found');
}

/** Redis's words when a function reaches a key outside the slot (or node) of its declared keys. */
const CROSS_SLOT = /non local key|do not hash to the same slot|CROSSSLOT/;

/** A function's refusal as the error it stands for: a key of another slot, another type, a replica's refusal. */
function typedReply(error: unknown): unknown {
  if (error instanceof CommandError && CROSS_SLOT.test(error.message)) {
    return new CrossSlotError(
      `an operation needed keys of several hash tags, which one function cannot touch on a Redis Cluster: give related models one group, @Model({ group }) (Redis said: ${error.message})`,
      { cause: error },
    );
  }
  return typedScriptError(demotedError(error));
}
