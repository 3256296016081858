/**
 * The key layout of one model under one prefix (docs/keys.md). Every key carries the hash tag `{Model}`,
 * so every key an atomic operation touches is in one Redis Cluster slot.
 *
 *   <prefix>:{<Model>}:seq        string  the id sequence (INCR)
 *   <prefix>:{<Model>}:all        zset    every live id; score = the id for sequence ids, 0 for uuids
 *   <prefix>:{<Model>}:obj:<id>   hash    the attributes, plus the internal field `#id`
 */
export class ModelKeys {
  readonly base: string;
  readonly sequence: string;
  readonly all: string;
  /** Object keys are `objectPrefix + id`; scripts derive them from this declared key (same hash tag). */
  readonly objectPrefix: string;

  constructor(
    readonly prefix: string,
    readonly model: string,
  ) {
    this.base = `${prefix}:{${model}}`;
    this.sequence = `${this.base}:seq`;
    this.all = `${this.base}:all`;
    this.objectPrefix = `${this.base}:obj:`;
  }

  object(id: string): string {
    return this.objectPrefix + id;
  }
}
