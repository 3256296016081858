import type { RedisCommands } from '../redis/redis-commands';

/** The arguments of a function call: strings, and Buffers for values that are bytes (lex bounds, members). */
export type ScriptArgs = ReadonlyArray<string | Buffer>;

/** What runs a function of the library: a Script, or a BoundScript (a model's copy, its SPEC appended). */
export interface FunctionRunner {
  run<T>(client: RedisCommands, keys: string[], args: ScriptArgs, map: (reply: unknown) => T): Promise<T>;
}

/**
 * One entry script (src/store/lua/<name>.lua) seen from TypeScript, as a node-redis command module is: the keys
 * it declares, the ARGV it reads, and its reply read into a typed result, all from one typed input. Each lives
 * beside its Lua (src/store/lua/<name>.ts), and is the only code that knows that script's layout.
 */
export interface EntryScript<I, R> {
  /** The function that runs it (a model's bound copy for a script that reads a SPEC). */
  function(input: I): FunctionRunner;
  /** KEYS, in the order the header gives. */
  keys(input: I): string[];
  /** ARGV, in the order the header gives. */
  args(input: I): ScriptArgs;
  /** The reply as the header's Returns describes it, read into a result. */
  reply(reply: unknown, input: I): R;
}

/** Runs an entry script with `input`: one FCALL (or FCALL_RO), its reply read by the script's own module. */
export function callScript<I, R>(client: RedisCommands, entry: EntryScript<I, R>, input: I): Promise<R> {
  return entry.function(input).run(client, entry.keys(input), entry.args(input), (reply) => entry.reply(reply, input));
}
