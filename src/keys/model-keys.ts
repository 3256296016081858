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
 *   <prefix>:{<Model>}:nil:<attr>                         set   ids whose attr has no value (same equality index)
 *   <prefix>:{<Model>}:idx:<attr>[@<scope>:<scopeValue>]  zset  ids scored by attr (number and Date index)
 *   <prefix>:{<Model>}:lex:<attr>[@<scope>:<scopeValue>]  zset  sortable string index (members value, id)
 *   <prefix>:{<Model>}:uniq:<attr>                        hash  unique value -> id
 *   <prefix>:{<Model>}:tmp:<n>                            temporary keys of a running query (10 s TTL)
 *   <prefix>:{<Model>}:exp                                zset  id -> expiry time (ms) of objects with a TTL
 *   <prefix>:{<Model>}:memo:<id>                          hash  index entries of an object with a TTL or a cap
 *   <prefix>:{<Model>}:lock:<id>                          string the holder's token while withLock runs
 *   <prefix>:{<Model>}:idem:<key>                         string the id an idempotent create stored (its key's TTL)
 * A sharded model's unique values are claimed across its shards, one key per value, tagged by the value's digest:
 *   <prefix>:{<Model>@<attr>:<sha1 of the value>}:claim  string `<id> <claimed at, ms>` (src/keys/claim-keys.ts)
 * The Lua scripts build the same names (src/store/lua/indexes.lua).
 *
 * Outside the model bases, one key per prefix (src/schema/schema-registry.ts, docs/operations.md):
 *   <prefix>#models   hash  model name -> stored definition (JSON); outside `<prefix>:` so that listing the data
 *                           under `<prefix>:` shows the data only
 */
export class ModelKeys {
  /** The key base every other key starts with: `<prefix>:{<tag>}`, followed by `:<Model>` for a model of a group. */
  readonly base: string;
  /** `<base>:seq`: the last sequence id drawn (INCR); never created for uuid ids. */
  readonly sequence: string;
  /** `<base>:all`: sorted set of every id; score = the id for sequence ids, 0 for uuids. */
  readonly all: string;
  /** Object keys are `objectPrefix + id`; scripts derive them from this declared key (same hash tag). */
  readonly objectPrefix: string;
  /** `<base>:exp`: sorted set of the ids of objects with a time to live, scored by when each expires (ms since the epoch). */
  readonly expiring: string;

  constructor(
    /** The connection's key prefix (`connect({ prefix })`, default `rr`). */
    readonly prefix: string,
    /** The model's name (`@Model({ name })`, default the class name). */
    readonly model: string,
    /** The model's group (`@Model({ group })`), whose name is then the hash tag; undefined when it has none. */
    readonly group?: string,
    /** The tenant of a tenant scope (`Model.scope(tenant)`), `<tenant>/` inside the hash tag; undefined outside one. */
    readonly tenant?: string,
    /** Set for one shard of a sharded model: which shard, of how many. */
    readonly shard?: {
      /** Which shard, from 0 to `count - 1`. */
      readonly index: number;
      /** How many shards the model has (`@Model({ shards })`). */
      readonly count: number;
    },
  ) {
    const unsharded = `${tenant === undefined ? '' : `${tenant}/`}${group ?? model}`;
    const tag = shard === undefined ? unsharded : shardTag(unsharded, shard.index, shard.count);
    this.base = group === undefined ? `${prefix}:{${tag}}` : `${prefix}:{${tag}}:${model}`;
    this.sequence = `${this.base}:seq`;
    this.all = `${this.base}:all`;
    this.objectPrefix = `${this.base}:obj:`;
    this.expiring = `${this.base}:exp`;
  }

  /** `<base>:obj:<id>`: the hash of object `id` (its attributes and internal fields). */
  object(id: string): string {
    return this.objectPrefix + id;
  }

  /** `<base>:idx:<field>:<value>`: the set of ids whose `field` holds `value` (stored form), an equality index entry. */
  valueSet(field: string, value: string): string {
    return `${this.base}:idx:${field}:${value}`;
  }

  /** `<base>:nil:<field>`: the set of ids whose `field` has no value, kept beside an equality index's value sets. */
  absent(field: string): string {
    return `${this.base}:nil:${field}`;
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

  /** `<base>:lock:<id>`: the holder's token while `withLock` holds the object's lock, with the lock's TTL. */
  lock(id: string): string {
    return `${this.base}:lock:${id}`;
  }

  /** `<base>:uniq:<field>`: the `@Unique` hash, value (lower-cased when case-insensitive) -> the id holding it. */
  unique(field: string): string {
    return `${this.base}:uniq:${field}`;
  }
}
