import { EncodedFields } from './encoded-fields';
import { FIRST_FIELD } from './hset-args';

/**
 * The snapshots of one chunk of a plain bulk create, kept in one array of values: each object's slot holds
 * the value of each of the model's fields (`fields`: its attributes', then its `#ci:` fields), in that order,
 * or undefined for a field it did not write. Every instance of the chunk refers to this one object until
 * something reads its snapshot (snapshotOf in entity-state.ts makes it a map then), so a saved instance keeps
 * a few pointers instead of an array of its HSET arguments: about 110 bytes less per instance, and less for
 * the young generation to copy during a bulk load. Its slot is found from its id (the chunk's ids follow one
 * another, from `firstId`). The array lives while any instance of the chunk keeps its snapshot unread, the
 * values of instances since dropped included: at most one chunk's values per instance kept.
 */
export class ChunkSnapshots {
  private readonly values: Array<string | undefined>;

  /**
   * Room for `count` objects, ids `firstId` on; `fields` is the model's field list (ModelDescriptor's
   * ownedFields, in its order).
   */
  constructor(
    private readonly fields: readonly string[],
    private readonly firstId: number,
    count: number,
  ) {
    this.values = new Array(count * fields.length);
  }

  /**
   * Keeps the fields of written HSET arguments (hset-args.ts) as the snapshot of the object `id`. False, with
   * nothing kept, when a field is not one of the model's (the caller keeps the arguments themselves then).
   */
  keep(id: string, args: readonly string[]): boolean {
    const fields = this.fields;
    const base = (Number(id) - this.firstId) * fields.length;
    // the fields come in the list's order (encodeAttributesInto's), so each search goes on from the last match
    let next = 0;
    for (let at = FIRST_FIELD; at + 1 < args.length; at += 2) {
      let slot = fields.indexOf(args[at], next);
      if (slot < 0) slot = fields.indexOf(args[at]);
      if (slot < 0) {
        for (let k = 0; k < fields.length; k++) this.values[base + k] = undefined;
        return false;
      }
      this.values[base + slot] = args[at + 1];
      next = slot + 1;
    }
    return true;
  }

  /** The snapshot of the object `id`, as a map in the fields' order. */
  fieldsOf(id: string): EncodedFields {
    const fields = this.fields;
    const base = (Number(id) - this.firstId) * fields.length;
    const snapshot: EncodedFields = new Map();
    for (let k = 0; k < fields.length; k++) {
      const value = this.values[base + k];
      if (value !== undefined) snapshot.set(fields[k], value);
    }
    return snapshot;
  }
}
