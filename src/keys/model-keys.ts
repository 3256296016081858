import { shardTag } from './shard-tags';

/**
 * The key layout of one model under one prefix (docs/keys.md). Every key carries the model's hash tag, so
 * every key an atomic operation touches is in one Redis Cluster slot. The tag is `{<Model>}`, or `{<group>}`
 * for models of a group (then followed by `:<Model>`), with `<tenant>/` in front inside a tenant scope:
 *   <prefix>:{Post}   <prefix>:{blog}:Post   <prefix>:{t42/Post}   <prefix>:{t42/blog}:Post
 * A sharded model (`@Model({ shards: n })`) has one base per shard, each with a tag of its own
 * (src/keys/shard-tags.ts): `<prefix>:{Post#0.<salt>}` ... `<prefix>:{Post#<n-1>.<salt>}`.
 * Below, `<prefix>:{<Model>}` stands for any of these bases.
 *
 *   <prefix>:{<Model>}:seq        string  the id sequence (INCR)
 *   <prefix>:{<Model>}:all        zset    every live id; score = the id for sequence ids, 0 for uuids
 *   <prefix>:{<Model>}:obj:<id>   hash    the attributes, plus the internal field `#id`
 *   <prefix>:{<Model>}:idx:<attr>:<value>                 set   ids whose attr is value (equality index)
 *   <prefix>:{<Model>}:idx:<attr>[@<scope>:<scopeValue>]  zset  ids scored by attr (number and Date index)
 *   <prefix>:{<Model>}:lex:<attr>[@<scope>:<scopeValue>]  zset  sortable string index (members value, id)
 *   <prefix>:{<Model>}:uniq:<attr>                        hash  unique value -> id
 *   <prefix>:{<Model>}:tmp:<n>                            temporary keys of a running query (10 s TTL)
 *   <prefix>:{<Model>}:exp                                zset  id -> expiry time (ms) of objects with a TTL
 *   <prefix>:{<Model>}:memo:<id>                          hash  index entries of an object with a TTL or a cap
 *   <prefix>:{<Model>}:lock:<id>                          string the holder's token while withLock runs
 * A sharded model's unique values are claimed across its shards, one key per value, tagged by the value's digest:
 *   <prefix>:{<Model>@<attr>:<sha1 of the value>}:claim  string `<id> <claimed at, ms>` (src/keys/claim-keys.ts)
 * The Lua scripts build the same names (src/scripts/lua/indexes.lua).
 *
 * Outside the model bases, one key per prefix (src/schema/schema-registry.ts, docs/operations.md):
 *   <prefix>#models   hash  model name -> stored definition (JSON); outside `<prefix>:` so that listing the data
 *                           under `<prefix>:` shows the data only
 */
export class ModelKeys {
  readonly base: string;
  readonly sequence: string;
  readonly all: string;
  /** Object keys are `objectPrefix + id`; scripts derive them from this declared key (same hash tag). */
  readonly objectPrefix: string;
  readonly expiring: string;

  constructor(
    readonly prefix: string,
    readonly model: string,
    readonly group?: string,
    readonly tenant?: string,
    /** Set for one shard of a sharded model: which shard, of how many. */
    readonly shard?: { readonly index: number; readonly count: number },
  ) {
    const unsharded = `${tenant === undefined ? '' : `${tenant}/`}${group ?? model}`;
    const tag = shard === undefined ? unsharded : shardTag(unsharded, shard.index, shard.count);
    this.base = group === undefined ? `${prefix}:{${tag}}` : `${prefix}:{${tag}}:${model}`;
    this.sequence = `${this.base}:seq`;
    this.all = `${this.base}:all`;
    this.objectPrefix = `${this.base}:obj:`;
    this.expiring = `${this.base}:exp`;
  }

  object(id: string): string {
    return this.objectPrefix + id;
  }

  valueSet(field: string, value: string): string {
    return `${this.base}:idx:${field}:${value}`;
  }

  /** A sorted index: `score` for numbers and Dates, `lex` for sortable strings; scoped ones name the scope value. */
  sorted(kind: 'score' | 'lex', field: string, scope?: { field: string; value: string }): string {
    const key = `${this.base}:${kind === 'lex' ? 'lex' : 'idx'}:${field}`;
    return scope ? `${key}@${scope.field}:${scope.value}` : key;
  }

  /** The memo of an object with a TTL or a cap: the index entries it holds (read by the sweeps). */
  memo(id: string): string {
    return `${this.base}:memo:${id}`;
  }

  lock(id: string): string {
    return `${this.base}:lock:${id}`;
  }

  unique(field: string): string {
    return `${this.base}:uniq:${field}`;
  }
}
