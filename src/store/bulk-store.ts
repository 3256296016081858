import { exactSequenceId } from '../keys/id-format';
import { Connection } from '../redis/connection';
import { rawTransaction } from '../redis/raw-transaction';
import { ModelDescriptor } from '../model/model-descriptor';
import { BulkTarget } from './bulk-routing';
import { HsetArgsSink, ID_SLOT, KEY_SLOT } from '../mapper/hset-args';
import { NewObjectEntries } from './new-object-entries';
import type { ParentChecks, Removal, RemoveOutcome, SaveOutcome } from './outcomes';
import { touchedIndexes } from '../mapper/touched-indexes';
import { KeyType, KeyTypesChecked } from './expect-types';
import { callScript } from './entry-script';
import { modelArgs } from './model-args';
import { drawIdsScript } from './lua/draw-ids';
import { removeIndexedManyScript } from './lua/remove-indexed-many';
import { removeManyScript } from './lua/remove-many';
import { removePlainScript } from './lua/remove-plain';
import { NewObject, saveManyScript } from './lua/save-many';
import { ObjectChange, updateManyScript } from './lua/update-many';

export type { NewObject } from './lua/save-many';
export type { ObjectChange } from './lua/update-many';

/**
 * The bulk counterpart of ObjectStore: many objects per round trip, each still applied atomically. It knows
 * keys, index specs and scripts, not entities.
 */
export class BulkStore {
  /** The key types this call's plain creates have checked (each key once per call). */
  private readonly checkedTypes: KeyTypesChecked;

  constructor(
    private readonly model: ModelDescriptor,
    private readonly connection: Connection,
  ) {
    this.checkedTypes = new KeyTypesChecked(connection.client);
  }

  /**
   * Creates the objects with one save-many.lua call, in order; resolves to one outcome per object, as
   * ObjectStore.insert's (`missing` meaning the given id exists already), or the error that refused that object
   * alone (a chunk applied object by object: save-many.lua). Always one call, also for a chunk that
   * sets no foreign key: a chunk is then applied whole before the next one (they are sent in order on one
   * connection), so an object may name one of an earlier chunk as its parent, as with save() called in order.
   */
  async create(target: BulkTarget, objects: readonly NewObject[], parents: ParentChecks): Promise<Array<SaveOutcome | Error>> {
    const model = modelArgs(this.model, target.keys);
    return callScript(this.connection.client, saveManyScript, { model, parents, objects });
  }

  /**
   * Applies the changes to stored objects with one update-many.lua call, in order; resolves to one outcome per
   * object, as ObjectStore.update's. Each object sends only the indexes its change touches and the foreign keys
   * it sets, so a change nothing depends on costs what update-fields.lua costs.
   */
  async update(target: BulkTarget, objects: readonly ObjectChange[], parents: ParentChecks): Promise<SaveOutcome[]> {
    const model = modelArgs(this.model, target.keys);
    const touched = (changes: ObjectChange['changes']) => touchedIndexes(this.model, changes);
    return callScript(this.connection.client, updateManyScript, { model, parents, objects, touched });
  }

  /**
   * Draws `count` sequence ids with one draw-ids.lua call (INCRBY, once the sequence and `all` are known to be
   * of their types); resolves to the first (the others follow it).
   */
  async drawIds(target: BulkTarget, count: number): Promise<number> {
    // a refusal (a key of another type, a draw past 2^53 - 1 or from no integer) comes typed from Script.run
    const last = await callScript(this.connection.client, drawIdsScript, { keys: target.keys, count });
    exactSequenceId(this.model.name, last);
    return last - count + 1;
  }

  /**
   * Writes new objects that need no check (createsWithoutChecks), under sequence ids drawn before (drawIds),
   * with one MULTI: every hash (`#id` and the fields), the chunk's `all` entries with one ZADD, and the index
   * entries computed here with one SADD or ZADD per index key. Nothing is read before the write, so no script
   * is needed, and Redis runs the native commands alone: about 30,000 instructions per 1 KB object, against
   * 120,000 for the same writes made by save-many.lua (bench/script-instructions.ts). A crash after the ids
   * were drawn only skips them (the sequence never goes back). `hsets[i]` holds the fields of the object
   * `ids[i]`, as HSET arguments (hset-args.ts) whose key and id this fills in. Resolves once every object is
   * written. The types of `all` and the index keys are checked first, each key once per call (KeyTypesChecked:
   * one more call for a chunk that writes a key no chunk before it wrote): a MULTI runs each of its commands
   * even when one fails, so a key of another type would leave hashes without their entries. Refused, nothing
   * is written.
   */
  async insertPlain(target: BulkTarget, ids: readonly string[], hsets: readonly string[][]): Promise<void> {
    if (ids.length === 0) return;
    const { keys } = target;
    const entries = new NewObjectEntries(keys, this.model.indexes);
    const fields = new HsetArgsSink();
    const transaction = rawTransaction(this.connection.client, keys.all);
    // any stray hash under these ids (another program's, or the sequence set back) is replaced, not merged
    // into: one DEL for the chunk, a few nanoseconds per key
    const stray: string[] = new Array(1 + ids.length);
    stray[0] = 'DEL';
    for (let i = 0; i < ids.length; i++) stray[1 + i] = keys.object(ids[i]);
    transaction.add(stray);
    const zaddAll: string[] = new Array(2 + 2 * ids.length);
    zaddAll[0] = 'ZADD';
    zaddAll[1] = keys.all;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      const hset = hsets[i];
      hset[KEY_SLOT] = stray[1 + i];
      hset[ID_SLOT] = id;
      transaction.add(hset);
      zaddAll[2 + 2 * i] = id;
      zaddAll[3 + 2 * i] = id;
      entries.add(id, fields.use(hset));
    }
    transaction.add(zaddAll);
    const expected: KeyType[] = [[keys.all, 'zset']];
    for (const [key, { kind, args }] of entries.byKey) {
      transaction.add([kind === 'S' ? 'SADD' : 'ZADD', key, ...args]);
      expected.push([key, kind === 'S' ? 'set' : 'zset']);
    }
    await this.checkedTypes.expect(expected);
    await transaction.exec();
  }

  /**
   * Removes objects as ObjectStore.remove removes each, all of one key base, with one call for all of them,
   * in order, as `removal` (the model's removal plan) says: remove-plain.lua when nothing but the hashes and
   * `all` (and `exp`) entries exist, remove-indexed-many.lua
   * (the model's bound copy) when only index entries are beside them, else remove-many.lua with the model
   * table (for a `memo` removal it gathers the deletes per key as well). Resolves to one outcome per id.
   */
  async remove({ keys }: BulkTarget, ids: readonly string[], removal: Removal): Promise<RemoveOutcome[]> {
    const client = this.connection.client;
    switch (removal.kind) {
      case 'plain':
        return callScript(client, removePlainScript, { keys, expirable: this.model.expirable, ids });
      case 'indexed':
        return callScript(client, removeIndexedManyScript, { keys, ids, indexes: this.model.indexes });
      default:
        return callScript(client, removeManyScript, { keys, ids, table: removal.args });
    }
  }
}
