import { ModelKeys } from '../keys/model-keys';
import { commandsFor } from '../redis/commands-for';
import type { RedisCommands } from '../redis/redis-commands';
import { shardOfId } from '../keys/shard-tags';
import { StoredDefinition, StoredIndex } from '../schema/stored-definition';
import type { IndexSpec } from '../store/index-specs';
import { partsOfName } from '../model/index-descriptor';

/** Finds a model's stored definition by name (related models, for foreign keys and memberships). */
export type DefinitionLookup = (name: string) => StoredDefinition | undefined;

/**
 * One model within one tenant (or outside tenants) under one prefix: what check, repair and reindex work on.
 * Built from a stored definition alone, so a tool without the application's classes can run them.
 */
export interface ModelScope {
  /** The model's stored definition: its name, key layout, attributes, indexes and relations. */
  readonly definition: StoredDefinition;
  /** The key prefix the data lives under (the connection's `prefix`). */
  readonly prefix: string;
  /** The tenant whose data this is; undefined for the model's data outside tenants. */
  readonly tenant: string | undefined;
  /** The model's key names in this scope (one shard's, in the scope of a shard). */
  readonly keys: ModelKeys;
  /** Finds the stored definitions of related models, for foreign keys and memberships. */
  readonly lookup: DefinitionLookup;
  /** @internal The commands the tools send, over the client the scope was made with. */
  readonly client: RedisCommands;
}

/** The scope the integrity tools work on: one model (from its stored definition) under `prefix`, outside tenants or in `tenant`; `lookup` finds the definitions of related models (docs/operations.md). */
export function modelScope(
  client: unknown,
  prefix: string,
  definition: StoredDefinition,
  lookup: DefinitionLookup,
  tenant?: string,
  shard?: number,
): ModelScope {
  const count = definition.shards ?? 1;
  const where = shard === undefined || count === 1 ? undefined : { index: shard, count };
  const keys = new ModelKeys(prefix, definition.name, definition.group ?? undefined, tenant, where);
  return { definition, prefix, tenant, keys, lookup, client: commandsFor(client) };
}

/** The scope of the shard holding object `id` (the scope itself for a model that is not sharded). */
export function scopeOfId(scope: ModelScope, id: string): ModelScope {
  const shards = shardScopes(scope);
  if (shards.length === 1) return shards[0];
  return shards[shardOfId(id, shards.length, scope.definition.idStrategy === 'sequence')];
}

/**
 * The scopes check and repair walk for a model: itself, or each of its shards (a shard is a model of its own
 * on disk: its `all`, hashes, indexes and sequence).
 */
export function shardScopes(scope: ModelScope): ModelScope[] {
  const count = scope.definition.shards ?? 1;
  if (count === 1 || scope.keys.shard !== undefined) return [scope];
  return Array.from({ length: count }, (_, shard) =>
    modelScope(scope.client, scope.prefix, scope.definition, scope.lookup, scope.tenant, shard),
  );
}

/** The related model `name` in the same tenant as `scope`. */
export function relatedScope(scope: ModelScope, name: string): ModelScope | undefined {
  const definition = scope.lookup(name);
  return definition && modelScope(scope.client, scope.prefix, definition, scope.lookup, scope.tenant);
}

function typeOf(definition: StoredDefinition, field: string | null): string | undefined {
  return field === null ? undefined : definition.attributes.find((a) => a.field === field)?.type;
}

/** `indexes` of the stored definition as the scripts take them (store/index-specs.ts). */
export function specsOf(definition: StoredDefinition, indexes: readonly StoredIndex[]): IndexSpec[] {
  return indexes.map((index) => ({
    kind: index.kind,
    caseInsensitive: index.caseInsensitive,
    field: index.attribute,
    scope: index.scope ?? undefined,
    numeric: typeOf(definition, index.attribute) === 'number',
    numericScope: typeOf(definition, index.scope) === 'number',
    // a composite unique's or compound index's attribute is its parts' fields joined by '+'
    ...(partsOfName(index.attribute)
      ? { numericParts: partsOfName(index.attribute)!.map((field) => isNumericPart(definition, index, field)) }
      : {}),
  }));
}

/** A part's numeric flag (index-specs.ts): a composite unique's holds numbers, a compound index's numbers or Dates. */
export function isNumericPart(definition: StoredDefinition, index: StoredIndex, field: string): boolean {
  const type = typeOf(definition, field);
  return index.kind === 'compound' ? type === 'number' || type === 'date' : type === 'number';
}

/** Whether the attribute holds numbers (whose stored `-0` is `0` as an index value). */
export function isNumeric(definition: StoredDefinition, field: string | null): boolean {
  return typeOf(definition, field) === 'number';
}
