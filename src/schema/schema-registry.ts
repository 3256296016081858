import { commandsFor } from '../redis/commands-for';
import { callScript } from '../store/entry-script';
import { registerSchemaScript } from '../store/lua/register-schema';
import { replaceDefinitionScript } from '../store/lua/replace-definition';
import { RedisCommands } from '../redis/redis-commands';
import { indexName, indexSignature, layoutSignature, StoredDefinition, withMemosKept, withStale } from './stored-definition';
import { parseDefinition } from './parse-definition';

/**
 * Where model definitions are stored: one hash per prefix, model name -> definition JSON. It is named
 * `<prefix>#models`, outside the `<prefix>:` namespace of the data, so that tools and tests that list or
 * delete "every key under the prefix" see the data only (docs/keys.md).
 */
export function registryKey(prefix: string): string {
  return `${prefix}#models`;
}

/** The commands of the connection, or of a client an application gives the admin functions. */
const commands = commandsFor;

/**
 * Stores `definition` unless one with other indexes, another layout or stale indexes is stored
 * (register-schema.lua), without its `memosKept` unless the stored one has it or none is stored; resolves to the
 * one stored before (undefined if none). One round trip.
 */
export async function registerDefinition(
  client: RedisCommands,
  prefix: string,
  definition: StoredDefinition,
): Promise<StoredDefinition | undefined> {
  const before = await callScript(client, registerSchemaScript, {
    registry: registryKey(prefix),
    name: definition.name,
    definition: JSON.stringify(definition),
    indexSignature: indexSignature(definition),
    layoutSignature: layoutSignature(definition),
    withoutMemosKept: definition.memosKept ? JSON.stringify(withMemosKept(definition, false)) : '',
  });
  return before === undefined ? undefined : parseDefinition(before, definition.name);
}

/**
 * Marks as stale the indexes of the stored definition that `current` does not declare: a connection using the
 * model as `current` defines it does not maintain them, so their entries go out of step with the objects (and
 * a later version declaring them again finds them so). register-schema.lua keeps a definition naming stale
 * indexes; reindex() rebuilds them and stores a definition without. Compare and set (replace-definition.lua),
 * tried again when another connection stored a definition in between. Resolves once nothing is left to mark.
 */
export async function markStale(client: RedisCommands, prefix: string, current: StoredDefinition): Promise<void> {
  const declared = new Set(current.indexes.map(indexName));
  for (;;) {
    const json = await commands(client).hGet(registryKey(prefix), current.name);
    if (typeof json !== 'string') return;
    const stored = parseDefinition(json, current.name);
    const marked = new Set(stored.stale ?? []);
    const names = stored.indexes.map(indexName).filter((name) => !declared.has(name) && !marked.has(name));
    if (names.length === 0) return;
    const next = JSON.stringify(withStale(stored, names));
    if (await callScript(client, replaceDefinitionScript, { registry: registryKey(prefix), name: current.name, read: json, next })) return;
  }
}

/** The stored definition of model `name` under `prefix` (from `<prefix>#models`), or undefined when none is stored. */
export async function storedDefinition(client: unknown, prefix: string, name: string): Promise<StoredDefinition | undefined> {
  const json = await commands(client).hGet(registryKey(prefix), name);
  return typeof json === 'string' ? parseDefinition(json, name) : undefined;
}

/** Replaces the stored definition (reindex() does, once the data matches it). */
export async function storeDefinition(client: unknown, prefix: string, definition: StoredDefinition): Promise<void> {
  await commands(client).hSet(registryKey(prefix), definition.name, JSON.stringify(definition));
}

/** Every definition stored under the prefix, by model name: what a command-line tool starts from. */
export async function storedDefinitions(client: unknown, prefix: string): Promise<Map<string, StoredDefinition>> {
  const { definitions, unreadable } = await readDefinitions(client, prefix);
  for (const [name, why] of unreadable) throw new Error(unreadableDefinition(name, why));
  return definitions;
}

/**
 * Every definition stored under the prefix, by model name, and the names of those that cannot be read (not
 * JSON, or not a valid definition of this format stored under its own name: parseDefinition) with why: one of
 * them leaves the others usable, and is never used to name keys.
 */
export async function readDefinitions(
  client: unknown,
  prefix: string,
): Promise<{ definitions: Map<string, StoredDefinition>; unreadable: Map<string, string> }> {
  const all = (await commands(client).hGetAll(registryKey(prefix))) as Record<string, string>;
  const definitions = new Map<string, StoredDefinition>();
  const unreadable = new Map<string, string>();
  for (const [name, json] of Object.entries(all)) {
    try {
      definitions.set(name, parseDefinition(json, name));
    } catch (error) {
      unreadable.set(name, (error as Error).message);
    }
  }
  return { definitions, unreadable };
}

/** What is said of a stored definition that cannot be read (bad JSON, or not a valid definition), and why. */
export function unreadableDefinition(name: string, why: string): string {
  return `the stored definition of model ${JSON.stringify(name)} cannot be read (${why})`;
}
