import { EncodedFields } from './encoded-fields';

/** What an update writes: fields whose stored form changed, and fields that became absent. */
export interface ChangeSet {
  readonly set: ReadonlyMap<string, string>;
  readonly removed: readonly string[];
}

export function diffFields(before: EncodedFields, after: EncodedFields): ChangeSet {
  const set = new Map<string, string>();
  for (const [field, value] of after) {
    if (before.get(field) !== value) set.set(field, value);
  }
  const removed: string[] = [];
  for (const field of before.keys()) {
    if (!after.has(field)) removed.push(field);
  }
  return { set, removed };
}

export function isEmpty(changes: ChangeSet): boolean {
  return changes.set.size === 0 && changes.removed.length === 0;
}
