import { createHash } from 'crypto';
import { ATTRIBUTE_TYPES, StoredType } from '../codecs/attribute-type';
import { MAX_SHARDS } from '../keys/shard-tags';
import { isValidModelName } from '../model/model-name';
import { isIdentifier } from '../model/attribute-name';
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
  /** `set` (equality), `score` (numbers, Dates), `lex` (sortable strings) or `unique` (docs/keys.md). */
  readonly kind: IndexKind;
  /** The hash field of the indexed attribute. */
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
  /** `@Model({ cap })`: the model keeps only its first `keep` objects by `by`; null when it is not capped. */
  readonly cap: {
    /** The hash field of the score-indexed number or Date attribute the cap orders by. */
    readonly by: string;
    /** How many objects the model keeps (at least 1). */
    readonly keep: number;
    /** `desc` keeps the highest values, `asc` the lowest. */
    readonly order: 'asc' | 'desc';
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

/**
 * A stored definition that is not one redis-record could have written: bad JSON is a SyntaxError, anything
 * else this (a field missing or of the wrong type, a name that is not the one it is stored under). Either way
 * the definition is broken: never used to name keys (docs/cli.md, docs/operations.md).
 */
export class StoredDefinitionError extends Error {}

const STORED_TYPES: readonly unknown[] = [...ATTRIBUTE_TYPES, 'custom'];
const INDEX_KINDS: readonly unknown[] = ['set', 'score', 'lex', 'unique'];
const ON_DELETE: readonly unknown[] = ['restrict', 'cascade', 'nullify'];

type Fields = Record<string, unknown>;

/** Checks one part of a definition; `where` names it in the message (`indexes[0].scope`). */
class Shape {
  constructor(private readonly where: string) {}

  fail(what: string): never {
    throw new StoredDefinitionError(`not a stored model definition of format ${DEFINITION_FORMAT}: ${this.where || 'it'} ${what}`);
  }

  at(name: string | number): Shape {
    return new Shape(typeof name === 'number' ? `${this.where}[${name}]` : this.where === '' ? name : `${this.where}.${name}`);
  }

  object(value: unknown): Fields {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) this.fail(`must be an object, got ${show(value)}`);
    return value as Fields;
  }

  array(value: unknown): unknown[] {
    if (!Array.isArray(value)) this.fail(`must be an array, got ${show(value)}`);
    return value;
  }

  oneOf(value: unknown, allowed: readonly unknown[]): void {
    if (!allowed.includes(value)) this.fail(`must be one of ${allowed.map(show).join(', ')}, got ${show(value)}`);
  }

  string(value: unknown): void {
    if (typeof value !== 'string') this.fail(`must be a string, got ${show(value)}`);
  }

  identifier(value: unknown): void {
    if (!isIdentifier(value)) this.fail(`must be an attribute name (an identifier), got ${show(value)}`);
  }

  modelName(value: unknown): void {
    if (!isValidModelName(value)) this.fail(`must be a model name (1 to 64 letters, digits or _), got ${show(value)}`);
  }

  wholeNumber(value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): void {
    if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max) {
      this.fail(`must be a whole number from ${min} to ${max}, got ${show(value)}`);
    }
  }
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const json = JSON.stringify(value);
  return json.length > 40 ? `${json.slice(0, 40)}...` : json;
}

function nullOr(value: unknown, check: (value: unknown) => void): void {
  if (value !== null) check(value);
}

function checkRelation(shape: Shape, value: unknown): void {
  const relation = shape.object(value);
  shape.at('kind').oneOf(relation.kind, ['belongsTo', 'hasMany', 'manyToMany']);
  shape.at('property').identifier(relation.property);
  shape.at('target').modelName(relation.target);
  if (relation.kind === 'belongsTo') shape.at('foreignKey').identifier(relation.foreignKey);
  else if (relation.kind === 'hasMany') {
    shape.at('inverse').identifier(relation.inverse);
    shape.at('onDelete').oneOf(relation.onDelete, ON_DELETE);
  } else nullOr(relation.inverse, (inverse) => shape.at('inverse').identifier(inverse));
}

/**
 * Checks that `value` is a definition of this format, stored under the field `name`: every field there, of its
 * type; names (the model's, its group's, its relations' targets) following the model-name rule, and the model's
 * equal to `name`; attribute, index and relation names plain identifiers (they name hash fields and key parts).
 */
function checkDefinition(value: unknown, name: string): StoredDefinition {
  const top = new Shape('');
  const definition = top.object(value);
  if (definition.format !== DEFINITION_FORMAT) top.at('format').fail(`must be ${DEFINITION_FORMAT}, got ${show(definition.format)}`);
  top.at('name').modelName(definition.name);
  if (definition.name !== name) top.at('name').fail(`must be the name it is stored under (${show(name)}), got ${show(definition.name)}`);
  nullOr(definition.group, (group) => top.at('group').modelName(group));
  const layout = top.at('layout').object(definition.layout);
  top.at('layout.hashTag').oneOf(layout.hashTag, [definition.group === null ? 'model' : 'group']);
  top.at('layout.tenants').oneOf(layout.tenants, ['<tenant>/ inside the hash tag']);
  top.at('idStrategy').oneOf(definition.idStrategy, ['sequence', 'uuid']);
  nullOr(definition.ttlMs, (ttl) => top.at('ttlMs').wholeNumber(ttl, 1));
  nullOr(definition.cap, (value) => {
    const shape = top.at('cap');
    const cap = shape.object(value);
    shape.at('by').identifier(cap.by);
    shape.at('keep').wholeNumber(cap.keep, 1);
    shape.at('order').oneOf(cap.order, ['asc', 'desc']);
  });
  nullOr(definition.dynamicProperty, (property) => top.at('dynamicProperty').identifier(property));
  top
    .at('attributes')
    .array(definition.attributes)
    .forEach((value, i) => {
      const shape = top.at('attributes').at(i);
      const attribute = shape.object(value);
      shape.at('property').identifier(attribute.property);
      shape.at('field').identifier(attribute.field);
      shape.at('type').oneOf(attribute.type, STORED_TYPES);
      shape.at('role').oneOf(attribute.role, ['counter', 'version', null]);
    });
  top
    .at('indexes')
    .array(definition.indexes)
    .forEach((value, i) => {
      const shape = top.at('indexes').at(i);
      const index = shape.object(value);
      shape.at('kind').oneOf(index.kind, INDEX_KINDS);
      shape.at('attribute').identifier(index.attribute);
      nullOr(index.scope, (scope) => shape.at('scope').identifier(scope));
      shape.at('caseInsensitive').oneOf(index.caseInsensitive, [true, false]);
    });
  top
    .at('relations')
    .array(definition.relations)
    .forEach((value, i) => checkRelation(top.at('relations').at(i), value));
  if (definition.shards !== undefined) top.at('shards').wholeNumber(definition.shards, 2, MAX_SHARDS);
  if (definition.stale !== undefined)
    top
      .at('stale')
      .array(definition.stale)
      .forEach((stale, i) => top.at('stale').at(i).string(stale));
  if (definition.memosKept !== undefined) top.at('memosKept').oneOf(definition.memosKept, [true]);
  top.at('hash').string(definition.hash);
  return definition as unknown as StoredDefinition;
}

/**
 * Reads the definition stored under the field `name` of `<prefix>#models`; throws a SyntaxError (not JSON) or
 * a StoredDefinitionError (not a definition of this format, see checkDefinition) for a broken one.
 */
export function parseDefinition(json: string, name: string): StoredDefinition {
  return checkDefinition(JSON.parse(json), name);
}
