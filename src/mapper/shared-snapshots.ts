import { dateCodec } from '../codecs/date-codec';
import { ModelDescriptor } from '../model/model-descriptor';
import { EncodedFields } from './encoded-fields';
import { FIRST_FIELD, keptAfterWrite } from './hset-args';

/**
 * How many new objects of a plain bulk create share one array of snapshot values. An instance kept keeps its
 * group's array, and so the values of up to this many objects, until its snapshot is read; a group as large as
 * a chunk (250) kept only 4 to 8 bytes less per instance, but could hold 249 dropped objects' values for one.
 */
export const SNAPSHOT_GROUP = 16;

/**
 * The fields a model's shared snapshots hold, in order (its attributes', then its `#ci:` fields), and for
 * each whether it holds a Date's milliseconds as dateCodec writes them. Such a value is kept as its number,
 * a heap number of 16 bytes, not as the string written for it: a saved instance of the suite's posts keeps
 * 148 bytes instead of 165 (bench/instance-memory.ts), and what a chunk keeps is copied by each of the young
 * generation's collections it lives through. dateCodec writes a time as String(time), and a time is a whole
 * number of milliseconds within ±8.64e15, so Number and String give each other back exactly: the snapshot read
 * is the same.
 */
export interface SnapshotFields {
  readonly names: readonly string[];
  /** Per field: whether it holds a Date's milliseconds (dateCodec's). */
  readonly dates: readonly boolean[];
}

/** The snapshot fields of a model without dynamic attributes (ownedFields, in order). */
export function snapshotFields(model: ModelDescriptor): SnapshotFields {
  const names = [...model.ownedFields];
  const dates = names.map((field) => model.attributes.some((attribute) => attribute.field === field && attribute.codec === dateCodec));
  return { names, dates };
}

/**
 * The snapshots of a few new objects of a plain bulk create (ids `firstId` on, one after another), kept in one
 * array of values: each object's slot holds the value of each of the model's fields (`fields`), in that order,
 * or undefined for a field it did not write; a Date's as its number of milliseconds (SnapshotFields). The
 * instances refer to this one object until something reads their snapshot (snapshotOf in entity-state.ts
 * makes it a map then), so a saved instance keeps a few pointers instead of an array of its HSET arguments:
 * about 100 bytes less per instance, and less for the young generation to copy during a bulk load.
 */
export class SharedSnapshots {
  private readonly values: Array<string | number | undefined>;

  /** Room for `count` objects, ids `firstId` on, each with the model's `fields` (snapshotFields). */
  constructor(
    private readonly fields: SnapshotFields,
    private readonly firstId: number,
    count: number,
  ) {
    this.values = new Array(count * fields.names.length);
  }

  /**
   * Keeps the fields of written HSET arguments (hset-args.ts) as the snapshot of the object `id` (its sequence
   * number). False, with nothing kept, when a field is not one of the model's (the caller keeps the arguments
   * themselves then).
   */
  keep(id: number, args: readonly string[]): boolean {
    const { names: fields, dates } = this.fields;
    const base = (id - this.firstId) * fields.length;
    // the fields come in the list's order (encodeAttributesInto's), so each search goes on from the last match
    let next = 0;
    for (let at = FIRST_FIELD; at + 1 < args.length; at += 2) {
      let slot = fields.indexOf(args[at], next);
      if (slot < 0) slot = fields.indexOf(args[at]);
      if (slot < 0) {
        for (let k = 0; k < fields.length; k++) this.values[base + k] = undefined;
        return false;
      }
      this.values[base + slot] = dates[slot] ? Number(args[at + 1]) : args[at + 1];
      next = slot + 1;
    }
    return true;
  }

  /** The snapshot of the object `id`, as a map in the fields' order. */
  fieldsOf(id: string): EncodedFields {
    const fields = this.fields.names;
    const base = (Number(id) - this.firstId) * fields.length;
    const snapshot: EncodedFields = new Map();
    for (let k = 0; k < fields.length; k++) {
      const value = this.values[base + k];
      if (value !== undefined) snapshot.set(fields[k], typeof value === 'number' ? String(value) : value);
    }
    return snapshot;
  }
}

/**
 * The snapshots of written new objects, `hsets[i]` holding the HSET arguments of the object at position
 * `positions[i]` (ascending) of a call whose ids run from `first` (position p has id first + p, as createMany
 * draws them): one SharedSnapshots per SNAPSHOT_GROUP ids, or where a field is not one of `fields` the
 * object's own arguments, without the key (keptAfterWrite).
 */
export function sharedSnapshots(
  fields: SnapshotFields,
  first: number,
  positions: readonly number[],
  hsets: readonly string[][],
): Array<SharedSnapshots | string[]> {
  const kept: Array<SharedSnapshots | string[]> = new Array(positions.length);
  const last = positions.length > 0 ? first + positions[positions.length - 1] : 0;
  let group: SharedSnapshots | undefined;
  let groupEnd = 0;
  for (let i = 0; i < positions.length; i++) {
    const id = first + positions[i];
    if (!group || id >= groupEnd) {
      // a group begins at its first written id: ids its codecs refused leave no slot before it
      const count = Math.min(SNAPSHOT_GROUP, last - id + 1);
      group = new SharedSnapshots(fields, id, count);
      groupEnd = id + count;
    }
    kept[i] = group.keep(id, hsets[i]) ? group : keptAfterWrite(hsets[i]);
  }
  return kept;
}
