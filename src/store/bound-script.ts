import type { RedisCommands } from '../redis/redis-commands';
import { SPEC_SEPARATOR } from './function-library';
import { Script } from './script';

/**
 * A function of the library given a model's SPEC: the values that depend on the model only (its index entries'
 * fields and key stems), sent as the call's last argument, one string the library parses once per server and keeps
 * (function-library.ts, specOf). Make one per model and keep it.
 */
export class BoundScript {
  private readonly spec: string;

  constructor(
    readonly script: Script,
    spec: readonly string[],
  ) {
    this.spec = spec.join(SPEC_SEPARATOR);
  }

  /** The function's name on the server. */
  get name(): string {
    return this.script.name;
  }

  run(client: RedisCommands, keys: string[], args: ReadonlyArray<string | Buffer>): Promise<unknown>;
  run<T>(client: RedisCommands, keys: string[], args: ReadonlyArray<string | Buffer>, map: (reply: unknown) => T): Promise<T>;
  run<T>(client: RedisCommands, keys: string[], args: ReadonlyArray<string | Buffer>, map?: (reply: unknown) => T): Promise<unknown> {
    return map ? this.script.run(client, keys, [...args, this.spec], map) : this.script.run(client, keys, [...args, this.spec]);
  }
}

/** `script` with a model's SPEC. */
export function boundScript(script: Script, spec: readonly string[]): BoundScript {
  return new BoundScript(script, spec);
}
