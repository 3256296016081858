import { indexName, StoredDefinition } from './stored-definition';

/** How the definition stored in Redis compares with the model as the application defines it now. */
export interface SchemaStatus {
  /** The stored definition (undefined before the model's first use under this prefix). */
  readonly stored: StoredDefinition | undefined;
  readonly current: StoredDefinition;
  /** Indexes the application declares that the stored data was not built with: reindex() builds them. */
  readonly added: string[];
  /** Indexes of the stored definition the application no longer declares: reindex() deletes their keys. */
  readonly dropped: string[];
  /** Whether reindex() has work to do (added or dropped indexes). */
  readonly needsReindex: boolean;
}

/** Compares two definitions index by index (by kind, attribute, scope and case folding; see indexName). */
export function compareDefinitions(stored: StoredDefinition | undefined, current: StoredDefinition): SchemaStatus {
  if (!stored) return { stored, current, added: [], dropped: [], needsReindex: false };
  const before = new Set(stored.indexes.map(indexName));
  const now = new Set(current.indexes.map(indexName));
  const added = [...now].filter((name) => !before.has(name));
  const dropped = [...before].filter((name) => !now.has(name));
  return { stored, current, added, dropped, needsReindex: added.length > 0 || dropped.length > 0 };
}

/** The one line the default onSchemaChange handler prints. */
export function describeChange(status: SchemaStatus): string {
  const parts: string[] = [];
  if (status.added.length > 0) parts.push(`added ${status.added.join(', ')}`);
  if (status.dropped.length > 0) parts.push(`dropped ${status.dropped.join(', ')}`);
  return `redis-record: model ${status.current.name} has indexes that differ from its stored definition (${parts.join('; ')}): run ${status.current.name}.reindex()`;
}
