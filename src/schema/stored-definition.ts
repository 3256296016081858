import { createHash } from 'crypto';
import { StoredType } from '../codecs/attribute-type';
import { IdStrategy } from '../metadata/model-descriptor';
import { IndexKind } from '../metadata/index-descriptor';
import { OnDelete } from '../metadata/relation-descriptor';

/** The format of a stored definition; raised when its shape changes incompatibly. */
export const DEFINITION_FORMAT = 1;

/** One attribute of a stored model definition: its property, hash field, stored type and role. */
export interface StoredAttribute {
  readonly property: string;
  readonly field: string;
  readonly type: StoredType;
  readonly role: 'counter' | 'version' | null;
}

/** An index by the fields it reads: `attribute` and `scope` are hash fields. */
export interface StoredIndex {
  readonly kind: IndexKind;
  readonly attribute: string;
  readonly scope: string | null;
  readonly caseInsensitive: boolean;
}

/** One relation of a stored model definition. */
export type StoredRelation =
  | { readonly kind: 'belongsTo'; readonly property: string; readonly target: string; readonly foreignKey: string }
  | { readonly kind: 'hasMany'; readonly property: string; readonly target: string; readonly inverse: string; readonly onDelete: OnDelete }
  | { readonly kind: 'manyToMany'; readonly property: string; readonly target: string; readonly inverse: string | null };

/**
 * Everything the integrity tools need to know about a model, without its class: what `connect()`'s first use
 * of a model stores in Redis (src/schema/schema-registry.ts) and what check, repair and reindex run from.
 * `layout` says how keys are named (docs/keys.md): the hash tag is the model's name, or its group's followed by
 * `:<name>`; tenants add `<tenant>/` inside the tag. `ttlMs` and `cap` decide whether objects keep memos.
 */
export interface StoredDefinition {
  readonly format: number;
  readonly name: string;
  readonly group: string | null;
  readonly layout: { readonly hashTag: 'model' | 'group'; readonly tenants: '<tenant>/ inside the hash tag' };
  readonly idStrategy: IdStrategy;
  readonly ttlMs: number | null;
  readonly cap: { readonly by: string; readonly keep: number; readonly order: 'asc' | 'desc' } | null;
  readonly dynamicProperty: string | null;
  readonly attributes: readonly StoredAttribute[];
  readonly indexes: readonly StoredIndex[];
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

/** Reads a stored definition; throws on anything that is not one of this format. */
export function parseDefinition(json: string): StoredDefinition {
  const parsed = JSON.parse(json) as StoredDefinition;
  if (parsed === null || typeof parsed !== 'object' || parsed.format !== DEFINITION_FORMAT || !Array.isArray(parsed.indexes)) {
    throw new Error(`not a stored model definition of format ${DEFINITION_FORMAT}`);
  }
  return parsed;
}
