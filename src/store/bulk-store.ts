import { asError } from '../errors/as-error';
import { CommandError, errorCode } from '../errors/command-errors';
import { typedScriptError } from '../errors/wrong-type';
import { memoFlag } from './memo-flag';
import { exactSequenceId } from '../keys/id-format';
import { Connection } from '../redis/connection';
import { rawTransaction } from '../redis/raw-transaction';
import { ModelDescriptor } from '../model/model-descriptor';
import { ChangeSet } from '../mapper/change-set';
import { scripts } from './scripts';
import { BulkTarget } from './bulk-routing';
import { EncodedFields } from '../mapper/encoded-fields';
import { HsetArgsSink, ID_SLOT, KEY_SLOT } from '../mapper/hset-args';
import { pushSpecs } from './index-specs';
import { NewObjectEntries } from './new-object-entries';
import { existedOf, ParentChecks, Removal, RemoveOutcome, removeOutcomeOf, removePlain, SaveOutcome } from './object-store';
import { indexedRemovalManyScript } from './indexed-removal';
import { touchedIndexes } from '../mapper/touched-indexes';
import { pushChangeArgs } from './change-args';
import { KeyType, KeyTypesChecked } from './expect-types';

/** A new object of a bulk create: its given id ('' to take a sequence number) and its encoded fields. */
export interface NewObject {
  readonly id: string;
  readonly fields: EncodedFields;
}

/** A change to a stored object in a bulk update: its id, what changes, and with @Version the version read. */
export interface ObjectChange {
  readonly id: string;
  readonly changes: ChangeSet;
  readonly readVersion: string | undefined;
}

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
    const { keys, idForm } = target;
    const model = this.model;
    const cap = model.cap;
    const args = [
      model.ttlMs !== undefined ? String(model.ttlMs) : '',
      memoFlag(model),
      model.version?.field ?? '',
      cap ? keys.sorted('score', cap.index.attribute.field) : '',
      cap ? String(cap.keep) : '',
      cap?.keepLowest ? 'asc' : 'desc',
      idForm,
    ];
    pushSpecs(args, model.indexes);
    // every foreign key is passed: the script checks only those a new object sets (a parent check per value)
    args.push(String(parents.length));
    for (const [field, objectPrefix] of parents) args.push(field, objectPrefix);
    args.push(String(objects.length));
    for (const object of objects) {
      args.push(object.id, String(object.fields.size));
      for (const [field, value] of object.fields) args.push(field, value);
    }
    // a refusal of the whole call comes typed from Script.run; an object's own refusal is a reply, typed here
    const reply = await scripts.saveMany().run(this.connection.client, [keys.sequence, keys.all, keys.base], args);
    return (reply as unknown[]).map((outcome) =>
      Array.isArray(outcome) && outcome[0] === 'error'
        ? asError(typedScriptError(new CommandError(errorCode(String(outcome[1])), String(outcome[1]))))
        : outcomeOf(outcome),
    );
  }

  /**
   * Applies the changes to stored objects with one update-many.lua call, in order; resolves to one outcome per
   * object, as ObjectStore.update's. Each object sends only the indexes its change touches and the foreign keys
   * it sets, so a change nothing depends on costs what update-fields.lua costs.
   */
  async update(target: BulkTarget, objects: readonly ObjectChange[], parents: ParentChecks): Promise<SaveOutcome[]> {
    const { keys, idForm } = target;
    const model = this.model;
    const cap = model.cap;
    const args = [
      model.version?.field ?? '',
      cap ? keys.sorted('score', cap.index.attribute.field) : '',
      cap ? String(cap.keep) : '',
      cap?.keepLowest ? 'asc' : 'desc',
      idForm,
      memoFlag(model),
    ];
    // a trim's evictions of objects without a memo
    if (cap) pushSpecs(args, model.indexes);
    else args.push('0');
    args.push(String(objects.length));
    for (const { id, changes, readVersion } of objects) {
      args.push(id, readVersion ?? '');
      pushChangeArgs(args, changes, touchedIndexes(model, changes), parents);
    }
    const reply = await scripts.updateMany().run(this.connection.client, [keys.sequence, keys.all, keys.base], args);
    return (reply as unknown[]).map(outcomeOf);
  }

  /**
   * Draws `count` sequence ids with one draw-ids.lua call (INCRBY, once the sequence and `all` are known to be
   * of their types); resolves to the first (the others follow it).
   */
  async drawIds(target: BulkTarget, count: number): Promise<number> {
    const { keys } = target;
    // a refusal (a key of another type, a draw past 2^53 - 1 or from no integer) comes typed from Script.run
    const last = Number(await scripts.drawIds().run(this.connection.client, [keys.sequence, keys.all], [String(count)]));
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
  async remove(target: BulkTarget, ids: readonly string[], removal: Removal): Promise<RemoveOutcome[]> {
    const { keys } = target;
    const client = this.connection.client;
    if (removal.kind === 'plain') return this.removePlain(target, ids);
    if (removal.kind === 'indexed') {
      const replies = await indexedRemovalManyScript(this.model.indexes).run(client, [keys.all, keys.base], ids);
      return (replies as unknown[]).map(existedOf);
    }
    const replies = await scripts.removeMany().run(client, [keys.all, keys.base], [String(ids.length), ...ids, ...removal.args]);
    return (replies as unknown[]).map(removeOutcomeOf);
  }

  private removePlain({ keys }: BulkTarget, ids: readonly string[]): Promise<RemoveOutcome[]> {
    return removePlain(this.connection.client, keys, this.model.expirable, ids);
  }
}

/** One entry of save-many.lua's or update-many.lua's reply, read as save.lua's reply is by ObjectStore. */
function outcomeOf(reply: unknown): SaveOutcome {
  if (reply === null || reply === undefined) return { missing: true };
  if (Array.isArray(reply)) {
    if (reply[0] === 'stale') return { stale: true };
    if (reply[0] === 'relation') return { missingParent: String(reply[1]) };
    return { uniqueTaken: String(reply[1]) };
  }
  return { id: String(reply) };
}
