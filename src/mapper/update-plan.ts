import { ModelDescriptor } from '../metadata/model-descriptor';
import { ChangeSet, diffFields } from './change-set';
import { EncodedFields } from './encoded-fields';

export interface UpdatePlan {
  readonly changes: ChangeSet;
  /** With @Version: the version the instance read (the script refuses the write if it moved). */
  readonly readVersion?: string;
  /** The fields as stored after the update succeeds: the instance's next snapshot. */
  readonly stored: EncodedFields;
}

/**
 * What an update writes: the fields that changed since the snapshot, never @Counter fields (only increment()
 * changes them), and with @Version the next version when anything else changes.
 */
export function planUpdate(model: ModelDescriptor, snapshot: EncodedFields, fields: EncodedFields): UpdatePlan {
  if (model.counters.size === 0 && !model.version) return { changes: diffFields(snapshot, fields), stored: fields };
  const before = new Map(snapshot);
  const after = new Map(fields);
  for (const field of model.counters) {
    before.delete(field);
    after.delete(field);
  }
  const version = model.version?.field;
  if (version) after.set(version, before.get(version) ?? '');
  const changes = diffFields(before, after);
  const stored = new Map(fields);
  for (const field of model.counters) {
    const kept = snapshot.get(field);
    if (kept === undefined) stored.delete(field);
    else stored.set(field, kept);
  }
  if (!version || (changes.set.size === 0 && changes.removed.length === 0)) {
    if (version) stored.set(version, before.get(version) ?? '');
    return { changes, stored };
  }
  const readVersion = before.get(version) ?? '';
  const next = String((Number(readVersion) || 0) + 1);
  const set = new Map(changes.set);
  set.set(version, next);
  stored.set(version, next);
  return { changes: { set, removed: changes.removed }, readVersion, stored };
}
