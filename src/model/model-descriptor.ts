import { AttributeDescriptor } from './attribute-descriptor';
import { HookKind } from './hook-kind';
import { caseFoldField, IndexDescriptor } from './index-descriptor';
import { RelationDescriptor } from './relation-descriptor';
import { ModelKeys } from '../keys/model-keys';
import { shardOfId } from '../keys/shard-tags';
import type { ReplicaOptions, ReplicaPolicy } from './replica-policy';

/** Hash fields of dynamic attributes are `~<key>`: no declared attribute (an identifier) can collide. */
export const DYNAMIC_PREFIX = '~';

/**
 * How new ids are made: 'sequence' ('1', '2', ... from a counter), 'uuid' (random v4), or 'given' (the application's,
 * `create({ id })`); docs/models.md#ids.
 */
export type IdStrategy = 'sequence' | 'uuid' | 'given';

/** `waitReplicas` / `waitTimeoutMs`: WAIT for replicas after each save, remove and increment (docs/cluster.md). */
export interface ModelOptions<K extends string = string> extends ReplicaOptions {
  /** The model's name in Redis keys; defaults to the class name. Letters, digits and `_`. */
  name?: string;
  /**
   * `sequence` (default): ids '1', '2', ... from an INCR counter. `uuid`: random v4 uuids. `given`: the application
   * gives each new object its id, `create({ id: 'feed-123', ... })`; a taken id is a UniqueConstraintError on `id`.
   */
  idStrategy?: IdStrategy;
  /** Seconds each object lives after its creation (expired objects are invisible at once, swept later). */
  ttl?: number;
  /**
   * Whether single objects may be given a time to live with `entity.expire(seconds)` (implied by `ttl`). A model
   * whose objects never expire answers `count()` with one ZCARD; `expire()` on it throws SchemaError.
   */
  expirable?: boolean;
  /**
   * Keep only the top `keep` objects by an indexed number or Date attribute (`order` 'asc' keeps the lowest), or with
   * `per`, the top `keep` of each value of that attribute.
   */
  cap?: CapOptions<K>;
  /**
   * A keyspace group shared by models that relate to each other: one hash tag, so relation checks, cascades
   * and many-to-many updates across them stay atomic on Redis Cluster too.
   */
  group?: string;
  /**
   * Spreads the model's objects and their index entries over this many hash tags (2 to 1024), so that one large
   * model uses every master of a Redis Cluster. Single-object operations stay atomic (an object and its entries
   * live in one shard); queries run in every shard and are merged (docs/cluster.md).
   */
  shards?: number;
  /**
   * Seconds a `create(attributes, { idempotencyKey })` remembers its key (default 86,400: 24 hours): a retry
   * under the key within this time resolves with the object the first call stored. docs/transactions-and-retries.md.
   */
  idempotencyTtl?: number;
}

/**
 * `@Model({ cap })`: keep the first `keep` objects by the indexed number or Date `by`, highest first unless `order`
 * is 'asc'; with `per`, the first `keep` of each value of that attribute (docs/expiry-and-capped.md#capped-models).
 * `K` is the attribute names given, which `@Model` checks against the class's properties at compile time.
 */
export interface CapOptions<K extends string = string> {
  /**
   * The attribute the objects are ranked by: a number or Date attribute which every object must hold, with an
   * unscoped `@Index()`, or with `per`, with `@Index({ scope: per })`.
   */
  by: K;
  /** How many objects the model keeps (a whole number, 1 or more), or each group with `per`; a write that passes it removes the rest whole. */
  keep: number;
  /** 'desc' (the default) keeps the highest values of `by`, 'asc' the lowest; ties are ordered by id. */
  order?: 'desc' | 'asc';
  /**
   * Cap each value of this attribute on its own: `{ by: 'at', keep: 10, per: 'userId' }` keeps the last 10 of each
   * user. An object without a value of `per` is in no group, and is not capped.
   */
  per?: K;
}

/** A resolved cap: the score index it trims and how many objects it keeps. */
export interface Cap {
  /** The score index of `by`: unscoped, or scoped by `per` for a cap per value. */
  readonly index: IndexDescriptor;
  readonly keep: number;
  readonly keepLowest: boolean;
  /** The attribute each value of which is capped on its own (the index's scope); undefined for a cap of the whole model. */
  readonly per?: AttributeDescriptor;
}

export interface ModelDefinition {
  readonly name: string;
  readonly ctor: Function;
  readonly idStrategy: IdStrategy;
  readonly ttlMs: number | undefined;
  /** Objects may get a time to live (always true with a ttl). Undefined means false. */
  readonly expirable?: boolean;
  readonly attributes: AttributeDescriptor[];
  readonly indexes: IndexDescriptor[];
  readonly hooks: ReadonlyMap<HookKind, readonly string[]>;
  readonly dynamicProperty: string | undefined;
  readonly cap: Cap | undefined;
  readonly group: string | undefined;
  readonly tenant?: string;
  readonly relations: RelationDescriptor[];
  /** 1 for a model that is not sharded. */
  readonly shards: number;
  /** Replicas each write waits for (`@Model({ waitReplicas })`), undefined when writes do not wait. */
  readonly replicas?: ReplicaPolicy;
  /** How long an idempotent create's key is remembered, in ms (`@Model({ idempotencyTtl })`); undefined: the default. */
  readonly idempotencyTtlMs?: number;
}

/** Everything redis-record knows about one model class, built once by `@Model`. */
export class ModelDescriptor {
  readonly attributes: readonly AttributeDescriptor[];
  readonly indexes: readonly IndexDescriptor[];
  /** Every hash field an entity of this model writes: attributes, and derived internal fields (`#ci:`). */
  readonly ownedFields: ReadonlySet<string>;
  private readonly byProperty: ReadonlyMap<string, AttributeDescriptor>;
  private readonly keysByPrefix = new Map<string, readonly ModelKeys[]>();

  readonly name: string;
  readonly ctor: Function;
  readonly idStrategy: IdStrategy;
  /** Time to live of new objects in ms, or undefined. */
  readonly ttlMs: number | undefined;
  /** Objects may have a time to live: the model has a ttl or is declared `expirable`. */
  readonly expirable: boolean;
  /** At most one: the property holding per-object dynamic attributes (hash fields `~<key>`). */
  readonly dynamicProperty: string | undefined;
  readonly cap: Cap | undefined;
  /** Models of one group share a hash tag, so operations spanning them stay atomic on Redis Cluster. */
  readonly group: string | undefined;
  /** Set on the descriptor of a tenant scope (`Model.scope(tenant)`): every key lives under the tenant. */
  readonly tenant: string | undefined;
  readonly relations: readonly RelationDescriptor[];
  /** How many shards (hash tags) the objects are spread over; 1 when the model is not sharded. */
  readonly shards: number;
  /** Replicas each save, remove and increment waits for (WAIT), undefined when writes do not wait. */
  readonly replicas: ReplicaPolicy | undefined;
  /** How long an idempotent create's key is remembered, in ms (`@Model({ idempotencyTtl })`); undefined: the default. */
  readonly idempotencyTtlMs: number | undefined;
  private readonly hooks: ReadonlyMap<HookKind, readonly string[]>;

  constructor(definition: ModelDefinition) {
    const { attributes, indexes } = definition;
    this.name = definition.name;
    this.ctor = definition.ctor;
    this.idStrategy = definition.idStrategy;
    this.ttlMs = definition.ttlMs;
    this.expirable = definition.ttlMs !== undefined || definition.expirable === true;
    this.dynamicProperty = definition.dynamicProperty;
    this.cap = definition.cap;
    this.group = definition.group;
    this.tenant = definition.tenant;
    this.relations = definition.relations;
    this.shards = definition.shards;
    this.replicas = definition.replicas;
    this.idempotencyTtlMs = definition.idempotencyTtlMs;
    this.hooks = definition.hooks;
    this.definition = definition;
    this.attributes = attributes;
    this.indexes = indexes;
    this.byProperty = new Map(attributes.map((a) => [a.property, a]));
    const owned = new Set(attributes.map((a) => a.field));
    for (const index of indexes) if (index.caseInsensitive) owned.add(caseFoldField(index.attribute.field));
    this.ownedFields = owned;
    this.version = attributes.find((a) => a.role === 'version');
    this.counters = new Set(attributes.filter((a) => a.role === 'counter').map((a) => a.field));
    this.updatedAttributes = this.version || this.counters.size > 0 ? attributes.filter((a) => !a.role) : attributes;
    this.computed = attributes.filter((a) => a.computed);
  }

  /** The @Computed attributes: getters whose values each write stores, never assigned. */
  readonly computed: readonly AttributeDescriptor[];

  /**
   * The attributes an update of a stored object encodes: all but @Counter and @Version ones, which a save of a
   * stored object neither writes nor checks (a value assigned to them by hand is ignored, as docs/concurrency.md says).
   */
  readonly updatedAttributes: readonly AttributeDescriptor[];

  /** The @Version attribute, if any. */
  readonly version: AttributeDescriptor | undefined;
  /** Fields of @Counter attributes: save() writes them on create only. */
  readonly counters: ReadonlySet<string>;

  /** Whether a stored field belongs to the entity (attributes, derived fields, dynamic attributes). */
  owns(field: string): boolean {
    return this.ownedFields.has(field) || (this.dynamicProperty !== undefined && field.startsWith(DYNAMIC_PREFIX));
  }

  /** New objects keep a memo of their index entries when they can disappear without a remove() call. */
  get keepsMemo(): boolean {
    return this.ttlMs !== undefined || this.cap !== undefined;
  }

  /** Indexes an attribute takes part in, as the indexed attribute, as the scope or as a part (a composite unique's, a compound index's). */
  indexesTouching(field: string): IndexDescriptor[] {
    return this.indexes.filter(
      (index) =>
        index.attribute.field === field ||
        index.parts?.some((part) => part.field === field) === true ||
        index.scope?.field === field ||
        (index.caseInsensitive && caseFoldField(index.attribute.field) === field),
    );
  }

  attribute(property: string): AttributeDescriptor | undefined {
    return this.byProperty.get(property);
  }

  hookMethods(kind: HookKind): readonly string[] {
    return this.hooks.get(kind) ?? [];
  }

  private readonly definition: ModelDefinition;

  /** The same model within a tenant: same class, attributes and indexes; keys under the tenant's namespace. */
  forTenant(ctor: Function, tenant: string): ModelDescriptor {
    return new ModelDescriptor({ ...this.definition, ctor, tenant });
  }

  /** The model's keys under a connection prefix (cached: key strings are built once). Not for sharded models. */
  keys(prefix: string): ModelKeys {
    if (this.shards > 1) throw new Error(`${this.name} is sharded: its keys depend on the shard (use shardKeys or keysOf)`);
    return this.shardKeys(prefix)[0];
  }

  /** The keys of every shard under a prefix: one entry for a model that is not sharded. */
  shardKeys(prefix: string): readonly ModelKeys[] {
    let keys = this.keysByPrefix.get(prefix);
    if (!keys) {
      const count = this.shards;
      keys =
        count === 1
          ? [new ModelKeys(prefix, this.name, this.group, this.tenant)]
          : Array.from({ length: count }, (_, index) => new ModelKeys(prefix, this.name, this.group, this.tenant, { index, count }));
      this.keysByPrefix.set(prefix, keys);
    }
    return keys;
  }

  /** The keys of the shard that holds object `id` (shardOfId). */
  keysOf(prefix: string, id: string): ModelKeys {
    const keys = this.shardKeys(prefix);
    return keys.length === 1 ? keys[0] : keys[shardOfId(id, keys.length, this.idStrategy === 'sequence')];
  }
}
