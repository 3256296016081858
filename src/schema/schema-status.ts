import { indexName, keepsMemo, layoutChanges, StoredDefinition } from './stored-definition';

/** How the definition stored in Redis compares with the model as the application defines it now. */
export interface SchemaStatus {
  /** The stored definition (undefined before the model's first use under this prefix). */
  readonly stored: StoredDefinition | undefined;
  /** The model's definition as the application defines it now: what reindex() stores. */
  readonly current: StoredDefinition;
  /** Indexes the application declares that the stored data was not built with: reindex() builds them. */
  readonly added: string[];
  /** Indexes of the stored definition the application no longer declares: reindex() deletes their keys. */
  readonly dropped: string[];
  /**
   * Indexes both declare that the stored definition names stale: another version of the application, declaring
   * other indexes, wrote without maintaining them. reindex() deletes their keys and builds them again.
   */
  readonly stale: string[];
  /**
   * The model has a ttl or a cap, and its objects are not known to keep memos (the ttl or cap was added, or
   * came back, since the last reindex()): reindex() writes every object's memo.
   */
  readonly memosMissing: boolean;
  /** Whether reindex() has work to do (added, dropped or stale indexes, or memos missing). */
  readonly needsReindex: boolean;
  /**
   * How the model's key layout changed (`group: none -> posts`, `shards: 1 -> 4`; empty when it did not): the
   * objects stored under the old keys are not seen by the model as it is now, and reindex() cannot move them.
   */
  readonly moved: string[];
}

/**
 * Compares two definitions index by index (by kind, attribute, scope and case folding; see indexName), and
 * whether the stored one says every object keeps the memo the current one needs.
 */
export function compareDefinitions(stored: StoredDefinition | undefined, current: StoredDefinition): SchemaStatus {
  if (!stored) return { stored, current, added: [], dropped: [], stale: [], memosMissing: false, needsReindex: false, moved: [] };
  const before = new Set(stored.indexes.map(indexName));
  const now = new Set(current.indexes.map(indexName));
  const added = [...now].filter((name) => !before.has(name));
  const dropped = [...before].filter((name) => !now.has(name));
  const stale = (stored.stale ?? []).filter((name) => before.has(name) && now.has(name));
  const memosMissing = keepsMemo(current) && stored.memosKept !== true;
  const needsReindex = added.length > 0 || dropped.length > 0 || stale.length > 0 || memosMissing;
  return { stored, current, added, dropped, stale, memosMissing, needsReindex, moved: layoutChanges(stored, current) };
}

/** The one line the default onSchemaChange handler prints. */
export function describeChange(status: SchemaStatus): string {
  const name = status.current.name;
  if (status.moved.length > 0) {
    return `redis-record: model ${name} has keys other than its stored definition's (${status.moved.join('; ')}): the objects stored under the old keys are not seen; move or delete them, then run ${name}.reindex()`;
  }
  const parts: string[] = [];
  if (status.added.length > 0) parts.push(`added ${status.added.join(', ')}`);
  if (status.dropped.length > 0) parts.push(`dropped ${status.dropped.join(', ')}`);
  if (status.stale.length > 0) parts.push(`stale ${status.stale.join(', ')}`);
  const changes: string[] = [];
  if (parts.length > 0) changes.push(`has indexes that differ from its stored definition (${parts.join('; ')})`);
  if (status.memosMissing) changes.push('may hold objects without the memo its ttl or cap needs (written before it had one)');
  return `redis-record: model ${name} ${changes.join(' and ')}: run ${name}.reindex()`;
}
