import { memoFlag } from './memo-flag';
import type { IncrementOutcome, ParentChecks, Removal, RemoveOutcome, SaveOutcome } from './outcomes';
export type { IncrementOutcome, ParentChecks, Removal, RemoveOutcome, SaveOutcome } from './outcomes';
import { Connection } from '../redis/connection';
import { RedisCommands } from '../redis/redis-commands';
import { IndexDescriptor } from '../model/index-descriptor';
import { boundRemovalScript, isBoundRemoval } from './indexed-removal';
import { pushSpecs } from './index-specs';
import { ModelDescriptor } from '../model/model-descriptor';
import { scripts } from './scripts';
import { ChangeSet } from '../mapper/change-set';
import { EncodedFields } from '../mapper/encoded-fields';
import { fieldsFromReply } from '../mapper/attribute-encoder';
import { ModelKeys } from '../keys/model-keys';
import { exactSequenceId } from '../keys/id-format';
import { idForm, nextShard } from './shard-turns';
import { createsWithoutChecks, entryTemplates } from './new-object-entries';
import { touchedIndexes } from '../mapper/touched-indexes';
import { KeyType, namingWrongType } from './expect-types';
import { typedDrawError } from '../errors/wrong-type';
import { demotedError } from '../redis/writable-master';
import { isWrongType } from '../errors/wrong-type';
import { allApplied } from '../errors/command-errors';
import { pushChangeArgs } from './change-args';
import { numberCodec } from '../codecs/number-codec';

/**
 * Turns entity changes into one atomic script call each: the persistence pattern of docs/consistency.md.
 * It knows keys, index specs and scripts, not entities.
 */
export class ObjectStore {
  constructor(
    private readonly model: ModelDescriptor,
    private readonly connection: Connection,
  ) {}

  /** The keys of the shard holding `id` (the model's only keys when it is not sharded). */
  private keysOf(id: string): ModelKeys {
    return this.model.keysOf(this.connection.prefix, id);
  }

  private get shards(): readonly ModelKeys[] {
    return this.model.shardKeys(this.connection.prefix);
  }

  /**
   * Inserts a new object with its index entries; `id` undefined takes the next sequence value (of the next
   * shard in turn, for a sharded model), a given id goes to its shard.
   */
  insert(fields: EncodedFields, id: string | undefined, parents: ParentChecks): Promise<SaveOutcome> {
    if (id === undefined && createsWithoutChecks(this.model) && !parents.some(([field]) => fields.has(field))) {
      return this.insertWithoutChecks(fields);
    }
    const keys = id === undefined ? this.shards[nextShard(this.model)] : this.keysOf(id);
    return this.save(keys, 'c', id ?? '', { set: fields, removed: [] }, this.model.indexes, undefined, parents);
  }

  /**
   * Creates an object that needs no check before the write (createsWithoutChecks, no foreign key set) with
   * create-plain.lua: the index entries are computed here, the script draws the id and writes the hash, its
   * `all` entry and the entries, a fraction of save.lua's work.
   */
  private async insertWithoutChecks(fields: EncodedFields): Promise<SaveOutcome> {
    const keys = this.shards[0];
    const args: Array<string | Buffer> = [String(fields.size)];
    for (const [field, value] of fields) args.push(field, value);
    const templates = entryTemplates(keys, this.model.indexes, fields);
    args.push(String(templates.length));
    for (const { kind, key, arg } of templates) {
      args.push(kind, key.slice(keys.base.length));
      if (arg !== undefined) args.push(arg);
    }
    return { id: String(await scripts.createPlain().run(this.connection.client, [keys.sequence, keys.all, keys.base], args)) };
  }

  /**
   * Draws the next sequence id ahead of the write (one round trip), for a sharded model that must claim its
   * unique values under the id before the object is written. Creating it is then `insert(fields, id)`.
   */
  async allocateId(): Promise<string> {
    const shard = nextShard(this.model);
    const client = this.connection.client;
    const sequence = this.shards[shard].sequence;
    const drawn = Number(
      await client
        .incr(sequence)
        .catch((error: unknown) => namingWrongType(client, typedDrawError(demotedError(error), sequence), [[sequence, 'string']])),
    );
    return exactSequenceId(this.model.name, (drawn - 1) * this.model.shards + shard + 1);
  }

  /**
   * Applies a change set and moves the index entries it touches. Changes that no index, version or foreign key
   * depends on go to update-fields.lua, a fraction of save.lua's cost in Redis.
   */
  update(id: string, changes: ChangeSet, readVersion: string | undefined, parents: ParentChecks): Promise<SaveOutcome> {
    const keys = this.keysOf(id);
    const touched = touchedIndexes(this.model, changes);
    if (touched.length > 0 || this.model.version !== undefined || parents.some(([field]) => changes.set.has(field))) {
      return this.save(keys, 'u', id, changes, touched, readVersion, parents);
    }
    const args = [id, String(changes.set.size)];
    for (const [field, value] of changes.set) args.push(field, value);
    args.push(String(changes.removed.length), ...changes.removed);
    return scripts
      .updateFields()
      .run(this.connection.client, [keys.object(id), keys.all], args)
      .then((reply): SaveOutcome | Promise<SaveOutcome> => {
        if (Number(reply) === 1) return { id };
        if (Number(reply) === 0) return { missing: true };
        // the hash has expired and its entries wait for a sweep: save.lua sweeps them and answers missing
        return this.save(keys, 'u', id, changes, touched, readVersion, parents);
      });
  }

  private async save(
    keys: ModelKeys,
    mode: 'c' | 'u',
    id: string,
    changes: ChangeSet,
    indexes: readonly IndexDescriptor[],
    readVersion: string | undefined,
    parents: ParentChecks,
  ): Promise<SaveOutcome> {
    const model = this.model;
    const cap = model.cap;
    const args = [
      mode,
      id,
      mode === 'c' && model.ttlMs !== undefined ? String(model.ttlMs) : '',
      memoFlag(model),
      model.version?.field ?? '',
      readVersion ?? '',
      cap ? keys.sorted('score', cap.index.attribute.field) : '',
      cap ? String(cap.keep) : '',
      cap?.keepLowest ? 'asc' : 'desc',
      idForm(model, keys),
    ];
    pushChangeArgs(args, changes, indexes, parents);
    // a trim's evictions of objects without a memo
    if (cap) pushSpecs(args, model.indexes);
    else args.push('0');
    const reply = await scripts.save().run(this.connection.client, [keys.sequence, keys.all, keys.base], args);
    if (reply === null) return { missing: true };
    if (Array.isArray(reply)) {
      if (reply[0] === 'stale') return { stale: true };
      if (reply[0] === 'relation') return { missingParent: String(reply[1]) };
      return { uniqueTaken: String(reply[1]) };
    }
    return { id: String(reply) };
  }

  /**
   * Deletes an object as `removal` says: with remove-plain.lua when there is nothing but the object itself to
   * remove (a script rather than a MULTI of ZREM + DEL: it refuses a key of another type before deleting
   * anything, where a MULTI runs the DEL even when the ZREM fails), with remove-indexed.lua when only its index
   * entries are beside it, with remove-memo.lua when it may also have a memo (and an `exp` entry), else with remove.lua
   * and the model table (its index entries, memo, dependents and memberships).
   */
  remove(id: string, removal: Removal): Promise<RemoveOutcome> {
    const keys = this.keysOf(id);
    const client = this.connection.client;
    if (removal.kind === 'plain') {
      // existed: its hash was there; an object whose time had come had an `all` entry alone
      return removePlain(client, keys, this.model.expirable, [id]).then(([existed]) => existed);
    }
    if (isBoundRemoval(removal)) {
      return boundRemovalScript(this.model.indexes, removal).run(client, [keys.all, keys.object(id), keys.base], [id], existedOf);
    }
    return scripts.remove().run(client, [keys.all, keys.object(id), keys.base], [id, ...removal.args], removeOutcomeOf);
  }

  /**
   * Reads one object: one HGETALL of its hash. An object is its hash: every write that creates or removes the
   * hash makes or drops its `all` entry and index entries in the same step (a script or a MULTI), so the hash
   * alone says whether the object exists at that instant, as exists() reads it. Null when there is no hash (never
   * created, removed, or expired: its id may stay in `all` until a sweep) or when it is not this object's
   * (its `#id` field is not `id`: a hash written by something else). One command instead of a MULTI of ZSCORE
   * `all` + HGETALL: Redis parses and runs one command instead of four, and node-redis keeps one record until the
   * reply; measured with 10,000 objects of about 1 KB read one at a time, about 1.2x the loads per second.
   */
  loadOne(id: string): Promise<EncodedFields | null> {
    return this.connection.client.hGetAllPairs(this.keysOf(id).object(id)).then((reply) => objectFields(id, reply), noObject);
  }

  /**
   * Reads any number of objects in one round trip: one MULTI of an HGETALL per id, so every hash is read at one
   * instant; each answer is read as loadOne's.
   */
  async loadMany(ids: readonly string[]): Promise<Array<EncodedFields | null>> {
    if (ids.length === 0) return [];
    const loaded: Array<EncodedFields | null> = new Array(ids.length).fill(null);
    /** Reads the ids at `positions` (every id, in order, when undefined) from one shard, in one transaction. */
    const read = async (keys: ModelKeys, positions?: readonly number[]) => {
      const shardIds = positions ? positions.map((at) => ids[at]) : ids;
      const commands = shardIds.map((id) => ['HGETALL', keys.object(id)]);
      const replies = readsOf(await this.connection.transport.transaction(commands, keys.all));
      for (let i = 0; i < shardIds.length; i++) loaded[positions ? positions[i] : i] = objectFields(shardIds[i], replies[i]);
    };
    const shards = this.shards;
    if (shards.length === 1) {
      await read(shards[0]);
      return loaded;
    }
    // one transaction per shard (a transaction stays in one slot), all sent at once
    const byShard = new Map<ModelKeys, number[]>();
    ids.forEach((id, at) => {
      const keys = this.keysOf(id);
      const positions = byShard.get(keys);
      if (positions) positions.push(at);
      else byShard.set(keys, [at]);
    });
    await Promise.all([...byShard].map(([keys, positions]) => read(keys, positions)));
    return loaded;
  }

  /**
   * A live object always has its hash (it holds `#id`), and an expired one has none; a key of another type is no
   * object (as check() and the scripts read it).
   */
  async exists(id: string): Promise<boolean> {
    return (await this.connection.client.type(this.keysOf(id).object(id))) === 'hash';
  }

  /**
   * Live objects: expired ones not yet swept are not counted. A model whose objects cannot expire answers with
   * ZCARD of `all`. An expirable one without a ttl sends ZCARD all + ZCARD exp in one MULTI, exact while none of
   * its objects has a TTL; otherwise count.lua subtracts the objects whose time has come, by the server's clock
   * (models with a ttl go there directly).
   */
  count(): Promise<number> {
    const shards = this.shards;
    if (shards.length === 1) return this.countShard(shards[0]);
    return Promise.all(shards.map((keys) => this.countShard(keys))).then((counts) => counts.reduce((sum, n) => sum + n, 0));
  }

  /** Not async on the common path: a bare ZCARD is the reply's promise itself, with no tick added. */
  private countShard(keys: ModelKeys): Promise<number> {
    const client = this.connection.client;
    const expected: KeyType[] = [[keys.all, 'zset']];
    if (!this.model.expirable) return client.zCard(keys.all).catch((error: unknown) => namingWrongType(client, error, expected));
    expected.push([keys.expiring, 'zset']);
    return this.countExpirable(keys).catch((error: unknown) => namingWrongType(client, error, expected));
  }

  private async countExpirable(keys: ModelKeys): Promise<number> {
    if (this.model.ttlMs === undefined) {
      const [live, expiring] = allApplied(await this.connection.client.multi().zCard(keys.all).zCard(keys.expiring).exec());
      if (Number(expiring) === 0) return Number(live);
    }
    return Number(await scripts.count().run(this.connection.client, [keys.all, keys.expiring], []));
  }

  /** Sets a time to live; false when the object is gone. */
  async expire(id: string, ms: number): Promise<boolean> {
    const keys = this.keysOf(id);
    const args = [id, String(ms)];
    pushSpecs(args, this.model.indexes);
    return Number(await scripts.expire().run(this.connection.client, [keys.all, keys.object(id), keys.base], args)) === 1;
  }

  /** Removes the time to live; false when the object is gone. */
  async persist(id: string): Promise<boolean> {
    const keys = this.keysOf(id);
    const args = [id, this.model.keepsMemo ? '1' : '0'];
    return Number(await scripts.persist().run(this.connection.client, [keys.all, keys.object(id), keys.base], args)) === 1;
  }

  /** Milliseconds left; null without a TTL; undefined when the object is gone. */
  async ttl(id: string): Promise<number | null | undefined> {
    const left = await this.connection.client.pTTL(this.keysOf(id).object(id));
    if (left === -2) return undefined;
    return left === -1 ? null : left;
  }

  /**
   * Adds `amount` to a counter; resolves to the stored result, or says why nothing was written: the object is
   * gone, the result would not be a finite number, or the counter holds something that is not a number.
   */
  async increment(id: string, field: string, amount: number): Promise<IncrementOutcome> {
    const keys = this.keysOf(id);
    const cap = this.model.cap;
    const capped = cap && cap.index.attribute.field === field;
    const args = [
      id,
      field,
      numberCodec.encode(amount), // '-0' for -0, which String() writes as '0'
      capped ? keys.sorted('score', field) : '',
      capped ? String(cap.keep) : '',
      cap?.keepLowest ? 'asc' : 'desc',
      this.model.idStrategy === 'sequence' ? '1' : '0',
    ];
    pushSpecs(args, this.model.indexesTouching(field));
    // a trim's evictions of objects without a memo
    if (capped) pushSpecs(args, this.model.indexes);
    else args.push('0');
    const reply = await scripts.increment().run(this.connection.client, [keys.all, keys.object(id), keys.base], args);
    if (Array.isArray(reply)) return reply[0] === 'unreadable' ? { unreadable: String(reply[1]) } : { outOfRange: true };
    return reply === null ? { gone: true } : { stored: String(reply) };
  }

  /** Deletes up to `batch` expired objects (per shard); resolves to how many. */
  async sweep(batch: number): Promise<number> {
    const swept = await Promise.all(
      this.shards.map(async (keys) => Number(await scripts.sweep().run(this.connection.client, [keys.all, keys.base], [String(batch)]))),
    );
    return swept.reduce((sum, n) => sum + n, 0);
  }
}

/** remove-indexed.lua's reply (and each of remove-indexed-many.lua's): 1 when the object was in `all`. */
export const existedOf = (reply: unknown): RemoveOutcome => ({ existed: Number(reply) === 1 });

/** remove.lua's reply (and each of remove-many.lua's): existed as existedOf, or the restrict rule that refused. */
export const removeOutcomeOf = (reply: unknown): RemoveOutcome =>
  Array.isArray(reply) ? { restrictedBy: { model: Number(reply[1]), foreignKey: String(reply[2]) } } : existedOf(reply);

/** The fields of the object `id` from its hash's HGETALL reply; null when the hash is not that object's. */
/** A read of an object's key that holds another type than a hash: no object (as check() reads it). */
function noObject(error: unknown): null {
  if (isWrongType(error)) return null;
  throw error;
}

/**
 * The replies of a transaction of object reads: a read that met a key of another type is no object (an empty
 * reply); any other refusal is thrown.
 */
function readsOf(replies: unknown[]): unknown[] {
  return replies.map((reply) => {
    if (!(reply instanceof Error)) return reply;
    if (isWrongType(reply)) return [];
    throw reply;
  });
}

function objectFields(id: string, reply: unknown): EncodedFields | null {
  const fields = fieldsFromReply(reply);
  return fields.get('#id') === id ? fields : null;
}

/**
 * Removes objects that keep nothing beside their hash and `all` entry (a `plain` removal) with one
 * remove-plain.lua call; `expirable`: the model's objects may have an `exp` entry.
 */
export async function removePlain(
  client: RedisCommands,
  keys: ModelKeys,
  expirable: boolean,
  ids: readonly string[],
): Promise<RemoveOutcome[]> {
  const replies = await scripts.removePlain().run(client, [keys.all, keys.base], [expirable ? '1' : '0', ...ids]);
  return (replies as unknown[]).map((deleted) => ({ existed: Number(deleted) === 1 }));
}
