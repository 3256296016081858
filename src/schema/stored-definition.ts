import { createHash } from 'crypto';
import { StoredType } from '../codecs/attribute-type';
import { IdStrategy } from '../model/model-descriptor';
import { IndexKind } from '../model/index-descriptor';
import { OnDelete } from '../model/relation-descriptor';

/** The format of a stored definition; raised when its shape changes incompatibly. */
export const DEFINITION_FORMAT = 1;

/** One attribute of a stored model definition: its property, hash field, stored type and role. */
export interface StoredAttribute {
  /** The property name on the model class. */
  readonly property: string;
  /** The hash field the value is stored in (the property name). */
  readonly field: string;
  /** How the value is stored: `string`, `number`, `boolean`, `date`, `json`, or `custom` for a custom codec. */
  readonly type: StoredType;
  /** `counter` (`@Counter`, changed by increment()), `version` (`@Version`, optimistic lock), null for a plain attribute. */
  readonly role: 'counter' | 'version' | null;
}

/** An index by the fields it reads: `attribute` and `scope` are hash fields. */
export interface StoredIndex {
  /**
   * `set` (equality), `score` (numbers, Dates), `lex` (sortable strings), `unique`, `tag` (the elements of a JSON
   * array) or `compound` (several attributes in one order) (docs/keys.md).
   */
  readonly kind: IndexKind;
  /** The hash field of the indexed attribute; a compound index's parts' fields joined by '+'. */
  readonly attribute: string;
  /** The hash field of the scope attribute (one sorted set per scope value); null for an unscoped index. */
  readonly scope: string | null;
  /** A unique index that compares values in lower case (`#ci:<attr>` field); false for every other index. */
  readonly caseInsensitive: boolean;
}

/** One relation of a stored model definition. */
export type StoredRelation =
  | {
      /** `@BelongsTo`: the object holds its parent's id. */
      readonly kind: 'belongsTo';
      /** The relation's property on the model. */
      readonly property: string;
      /** The name of the parent model. */
      readonly target: string;
      /** The indexed attribute holding the parent's id (`<property>Id` unless given). */
      readonly foreignKey: string;
    }
  | {
      /** `@HasMany`: the parent side of the target's `@BelongsTo`. */
      readonly kind: 'hasMany';
      /** The relation's property on the model. */
      readonly property: string;
      /** The name of the child model. */
      readonly target: string;
      /** The child model's `@BelongsTo` property that points back to this model. */
      readonly inverse: string;
      /** What removing the parent does to its children: `restrict`, `cascade` or `nullify`. */
      readonly onDelete: OnDelete;
    }
  | {
      /** `@ManyToMany`: a set of related ids on each side. */
      readonly kind: 'manyToMany';
      /** The relation's property on the model. */
      readonly property: string;
      /** The name of the related model. */
      readonly target: string;
      /** The target's property for the other side of the same membership; null when the target does not expose it (`rev:` sets). */
      readonly inverse: string | null;
      /** Present (true) only when this side keeps its members in order: its sets are sorted sets of positions. */
      readonly ordered?: true;
    };

/**
 * Everything the integrity tools need to know about a model, without its class: what `connect()`'s first use
 * of a model stores in Redis (src/schema/schema-registry.ts) and what check, repair and reindex run from.
 * `layout` says how keys are named (docs/keys.md): the hash tag is the model's name, or its group's followed by
 * `:<name>`; tenants add `<tenant>/` inside the tag. `ttlMs` and `cap` decide whether objects keep memos.
 */
export interface StoredDefinition {
  /** The definition format it was written in (DEFINITION_FORMAT); another one is refused as broken. */
  readonly format: number;
  /** The model's name (`<Model>` in its keys), also the field of `<prefix>#models` the definition is stored under. */
  readonly name: string;
  /** The model's group (`@Model({ group })`), whose name is then the hash tag; null when it has none. */
  readonly group: string | null;
  /** How key names are built, for tools reading the definition (docs/keys.md). */
  readonly layout: {
    /** `model`: the hash tag is the model's name; `group`: the group's name, followed by `:<name>` (as `group` says). */
    readonly hashTag: 'model' | 'group';
    /** Always this text: a tenant scope's keys put `<tenant>/` in front of the name inside the hash tag. */
    readonly tenants: '<tenant>/ inside the hash tag';
  };
  /** How new ids are made: `sequence` (from the `seq` counter) or `uuid` (random v4). */
  readonly idStrategy: IdStrategy;
  /** How long each object lives after its creation, in milliseconds (`@Model({ ttl })`); null without a ttl. */
  readonly ttlMs: number | null;
  /**
   * `@Model({ cap })`: the model keeps only its first `keep` objects by `by`, or with `per` the first `keep` of each
   * value of that attribute; null when it is not capped.
   */
  readonly cap: {
    /** The hash field of the score-indexed number or Date attribute the cap orders by. */
    readonly by: string;
    /** How many objects the model keeps (at least 1). */
    readonly keep: number;
    /** `desc` keeps the highest values, `asc` the lowest. */
    readonly order: 'asc' | 'desc';
    /**
     * Set for a cap per value only: the hash field of the attribute each value of which is capped on its own; `by`
     * is then indexed per value of it (the score index of `by` scoped by `per`).
     */
    readonly per?: string;
  } | null;
  /** The `@DynamicAttrs` property, whose keys are stored as hash fields `~<key>`; null when the model has none. */
  readonly dynamicProperty: string | null;
  /** The model's attributes (foreign keys of `@BelongsTo` included). */
  readonly attributes: readonly StoredAttribute[];
  /** The model's indexes, unique values included. */
  readonly indexes: readonly StoredIndex[];
  /** The model's relations; empty when it has none. */
  readonly relations: readonly StoredRelation[];
  /** Set for a sharded model only: how many shards (hash tags `<Model>#<shard>.<salt>`, src/keys/shard-tags.ts). */
  readonly shards?: number;
  /**
   * Set only when some: names of this definition's indexes (indexName) that a connection declaring other indexes
   * has used the model without, so that its writes did not maintain them: their entries can be missing, wrong or
   * dangling until reindex() rebuilds them (markStale in schema-registry.ts writes it).
   */
  readonly stale?: string[];
  /**
   * What the objects were last indexed under, as far as memos go: true (else absent) when every object of the
   * model keeps a memo, because every one was written or last reindexed while the model had a ttl or a cap. The
   * application's definition of such a model says true (its writes keep memos); the stored one loses it when a
   * definition without a ttl or cap replaces it, or one with them replaces one without (register-schema.lua),
   * and gets it back from reindex(), which then writes every object's memo. reindex() walks the objects of a
   * model with a ttl or a cap only when it is missing.
   */
  readonly memosKept?: true;
  /** sha1 of the definition without this field: equal hashes, equal definitions. */
  readonly hash: string;
}

export type UnhashedDefinition = Omit<StoredDefinition, 'hash'>;

/** Adds the hash of the definition's canonical JSON (properties in the order written above). */
export function withHash(definition: UnhashedDefinition): StoredDefinition {
  const hash = createHash('sha1').update(JSON.stringify(definition)).digest('hex');
  return { ...definition, hash };
}

/** `definition` with `names` added to its stale indexes (sorted, no repeats), hashed again. */
export function withStale(definition: StoredDefinition, names: readonly string[]): StoredDefinition {
  const { hash: _hash, stale, memosKept, ...rest } = definition;
  // in the order of StoredDefinition's fields: the hash is of the JSON as written
  return withHash({ ...rest, stale: [...new Set([...(stale ?? []), ...names])].sort(), ...(memosKept ? { memosKept } : {}) });
}

/** A stable name for an index, as reported by schemaStatus() and reindex(): `lex:title@userId`, `unique:email/ci`. */
export function indexName(index: StoredIndex): string {
  const scope = index.scope === null ? '' : `@${index.scope}`;
  return `${index.kind}:${index.attribute}${scope}${index.caseInsensitive ? '/ci' : ''}`;
}

/** The sorted index names joined by ',' (register-schema.lua computes the same from a stored definition). */
export function indexSignature(definition: StoredDefinition): string {
  return definition.indexes.map(indexName).sort().join(',');
}

/**
 * What decides where a model's keys are (docs/keys.md): its group and its shards, as `<group>|<shards>`
 * (register-schema.lua computes the same from a stored definition). Two definitions with different layouts
 * name different keys: the data one wrote is not seen by the other.
 */
export function layoutSignature(definition: StoredDefinition): string {
  return `${definition.group ?? ''}|${definition.shards ?? 1}`;
}

/** How the layout changed from `stored` to `current`: `group: none -> posts`, `shards: 1 -> 4` (empty: unchanged). */
export function layoutChanges(stored: StoredDefinition, current: StoredDefinition): string[] {
  const changes: string[] = [];
  if (stored.group !== current.group) changes.push(`group: ${stored.group ?? 'none'} -> ${current.group ?? 'none'}`);
  if ((stored.shards ?? 1) !== (current.shards ?? 1)) changes.push(`shards: ${stored.shards ?? 1} -> ${current.shards ?? 1}`);
  return changes;
}

/** Whether objects of the model keep a memo of their index entries (a TTL or a cap). */
export function keepsMemo(definition: Pick<StoredDefinition, 'ttlMs' | 'cap'>): boolean {
  return definition.ttlMs !== null || definition.cap !== null;
}

/**
 * The definition with `memosKept` as given (true only for a model that keeps memos), hashed again: what is
 * stored once every object is known to keep a memo (true), or while some may not (false).
 */
export function withMemosKept(definition: StoredDefinition, kept: boolean): StoredDefinition {
  const rest: { -readonly [K in keyof StoredDefinition]?: StoredDefinition[K] } = { ...definition };
  delete rest.hash;
  delete rest.memosKept;
  return withHash({ ...(rest as UnhashedDefinition), ...(kept && keepsMemo(definition) ? { memosKept: true as const } : {}) });
}

/** The kind of key an index's entries live in: a tag index's are sets, a compound index's lex sorted sets. */
export function keyKindOf(index: StoredIndex): 'set' | 'score' | 'lex' | 'unique' {
  return index.kind === 'tag' ? 'set' : index.kind === 'compound' ? 'lex' : index.kind;
}
