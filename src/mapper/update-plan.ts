import { caseFoldField } from '../model/index-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
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
 * A derived field (`#ci:<attr>`, the lower-cased form of a case-insensitive unique attribute) is written and
 * removed with its source, never on its own diff: the stored one may differ from the instance's snapshot
 * (another writer changed the attribute), so a source written without it would leave them disagreeing.
 */
function withDerived(model: ModelDescriptor, changes: ChangeSet, fields: EncodedFields): ChangeSet {
  const folded = model.indexes.filter((index) => index.caseInsensitive);
  if (folded.length === 0) return changes;
  const set = new Map(changes.set);
  const removed = [...changes.removed];
  for (const index of folded) {
    const source = index.attribute.field;
    const derived = caseFoldField(source);
    if (set.has(source)) set.set(derived, fields.get(derived)!);
    else if (removed.includes(source) && !removed.includes(derived)) removed.push(derived);
  }
  return { set, removed };
}

/**
 * What an update writes: the fields that changed since the snapshot, never @Counter fields (only increment()
 * changes them), and with @Version the next version when anything else changes. `fields` (the instance's,
 * encodeUpdatedAttributes's) need not hold the counters and the version: their stored values are kept.
 */
export function planUpdate(model: ModelDescriptor, snapshot: EncodedFields, fields: EncodedFields): UpdatePlan {
  if (model.counters.size === 0 && !model.version)
    return { changes: withDerived(model, diffFields(snapshot, fields), fields), stored: fields };
  const before = new Map(snapshot);
  const after = new Map(fields);
  for (const field of model.counters) {
    before.delete(field);
    after.delete(field);
  }
  const version = model.version?.field;
  // the version is the script's to write: no change of its own (absent from an object stored before @Version)
  if (version) keepField(after, version, before.get(version));
  const changes = withDerived(model, diffFields(before, after), fields);
  const stored = new Map(fields);
  for (const field of model.counters) keepField(stored, field, snapshot.get(field));
  if (!version || (changes.set.size === 0 && changes.removed.length === 0)) {
    if (version) keepField(stored, version, before.get(version));
    return { changes, stored };
  }
  const readVersion = before.get(version) ?? '';
  const next = String((Number(readVersion) || 0) + 1);
  const set = new Map(changes.set);
  set.set(version, next);
  stored.set(version, next);
  return { changes: { set, removed: changes.removed }, readVersion, stored };
}

/** Sets `field` to `value` in `fields`, or removes it when the value is absent (undefined). */
function keepField(fields: EncodedFields, field: string, value: string | undefined): void {
  if (value === undefined) fields.delete(field);
  else fields.set(field, value);
}
