import type { IncrementOutcome, ParentChecks, Removal, RemoveOutcome, SaveOutcome } from './outcomes';
export type { IncrementOutcome, ParentChecks, Removal, RemoveOutcome, SaveOutcome } from './outcomes';
import { Connection } from '../redis/connection';
import { IndexDescriptor } from '../model/index-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import { ChangeSet } from '../mapper/change-set';
import { EncodedFields } from '../mapper/encoded-fields';
import { ModelKeys } from '../keys/model-keys';
import { shardSequenceId } from '../keys/id-format';
import { nextShard } from './shard-turns';
import { createsWithoutChecks, entryTemplates } from './new-object-entries';
import { touchedIndexes } from '../mapper/touched-indexes';
import { namingWrongType } from './expect-types';
import { typedDrawError } from '../errors/wrong-type';
import { demotedError } from '../redis/writable-master';
import { callScript } from './entry-script';
import { modelArgs } from './model-args';
import { countObjects, loadMany, loadOne } from './object-reads';
import { createPlainScript } from './lua/create-plain';
import { expireScript } from './lua/expire';
import { incrementScript } from './lua/increment';
import { persistScript } from './lua/persist';
import { removeScript } from './lua/remove';
import { removeIndexedScript } from './lua/remove-indexed';
import { removeMemoScript } from './lua/remove-memo';
import { removePlainScript } from './lua/remove-plain';
import { saveScript } from './lua/save';
import { sweepScript } from './lua/sweep';
import { updateFieldsScript } from './lua/update-fields';
import { UpsertInput, UpsertOutcome, upsertScript } from './lua/upsert';

/**
 * Turns entity changes into one atomic script call each: the persistence pattern of docs/consistency.md.
 * It knows keys, index specs and scripts, not entities; each script's arguments and reply are its module's
 * (src/store/lua/<script>.ts), the model-wide ones model-args.ts's.
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
  insert(fields: EncodedFields, id: string | undefined, parents: ParentChecks, ttl?: number): Promise<SaveOutcome> {
    if (id === undefined && createsWithoutChecks(this.model) && !parents.some(([field]) => fields.has(field))) {
      return this.insertWithoutChecks(fields);
    }
    const keys = id === undefined ? this.shards[nextShard(this.model)] : this.keysOf(id);
    return this.save(keys, 'c', id ?? '', { set: fields, removed: [] }, this.model.indexes, undefined, parents, ttl);
  }

  /**
   * Creates an object that needs no check before the write (createsWithoutChecks, no foreign key set) with
   * create-plain.lua: the index entries are computed here, the script draws the id and writes the hash, its
   * `all` entry and the entries, a fraction of save.lua's work.
   */
  private async insertWithoutChecks(fields: EncodedFields): Promise<SaveOutcome> {
    const keys = this.shards[0];
    const entries = entryTemplates(keys, this.model.indexes, fields);
    return { id: await callScript(this.connection.client, createPlainScript, { keys, fields, entries }) };
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
    return shardSequenceId(this.model.name, this.model.shards, shard, drawn);
  }

  /**
   * Applies a change set and moves the index entries it touches. Changes that no index, version or foreign key
   * depends on go to update-fields.lua, a fraction of save.lua's cost in Redis. A `ttl` (ms) replaces the
   * object's time to live in the same script.
   */
  update(id: string, changes: ChangeSet, readVersion: string | undefined, parents: ParentChecks, ttl?: number): Promise<SaveOutcome> {
    const keys = this.keysOf(id);
    const touched = touchedIndexes(this.model, changes);
    if (ttl !== undefined || touched.length > 0 || this.model.version !== undefined || parents.some(([field]) => changes.set.has(field))) {
      return this.save(keys, 'u', id, changes, touched, readVersion, parents, ttl);
    }
    return callScript(this.connection.client, updateFieldsScript, { keys, id, changes }).then(
      (outcome): SaveOutcome | Promise<SaveOutcome> => {
        if (outcome === 'written') return { id };
        if (outcome === 'missing') return { missing: true };
        // the hash has expired and its entries wait for a sweep: save.lua sweeps them and answers missing
        return this.save(keys, 'u', id, changes, touched, readVersion, parents);
      },
    );
  }

  private async save(
    keys: ModelKeys,
    mode: 'c' | 'u',
    id: string,
    changes: ChangeSet,
    indexes: readonly IndexDescriptor[],
    readVersion: string | undefined,
    parents: ParentChecks,
    ttl?: number,
  ): Promise<SaveOutcome> {
    const model = modelArgs(this.model, keys);
    return callScript(this.connection.client, saveScript, { model, mode, id, readVersion, changes, indexes, parents, ttl });
  }

  /**
   * Model.update and Model.upsert (upsert.lua): one script that writes and answers with the object as stored.
   * `id` names the object's shard ('u'); an upsert's keys are the model's (a sharded model has no upsert).
   */
  upsert(input: Omit<UpsertInput, 'model'>): Promise<UpsertOutcome> {
    const model = modelArgs(this.model, this.keysOf(input.id));
    return callScript(this.connection.client, upsertScript, { ...input, model });
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
    switch (removal.kind) {
      case 'plain':
        // existed: its hash was there; an object whose time had come had an `all` entry alone
        return callScript(client, removePlainScript, { keys, expirable: this.model.expirable, ids: [id] }).then(([existed]) => existed);
      case 'indexed':
        return callScript(client, removeIndexedScript, { keys, id, indexes: this.model.indexes });
      case 'memo':
        return callScript(client, removeMemoScript, { keys, id, indexes: this.model.indexes });
      case 'program':
        return callScript(client, removeScript, { keys, id, table: removal.args });
    }
  }

  /** Reads one object (object-reads.ts): null when it does not exist. */
  loadOne(id: string): Promise<EncodedFields | null> {
    return loadOne(this.model, this.connection, id);
  }

  /** Reads any number of objects in one round trip (object-reads.ts). */
  loadMany(ids: readonly string[]): Promise<Array<EncodedFields | null>> {
    return loadMany(this.model, this.connection, ids);
  }

  /**
   * A live object always has its hash (it holds `#id`), and an expired one has none; a key of another type is no
   * object (as check() and the scripts read it).
   */
  async exists(id: string): Promise<boolean> {
    return (await this.connection.client.type(this.keysOf(id).object(id))) === 'hash';
  }

  /** Live objects: expired ones not yet swept are not counted (object-reads.ts). */
  count(): Promise<number> {
    return countObjects(this.model, this.connection);
  }

  /** Sets a time to live; false when the object is gone. */
  async expire(id: string, ms: number): Promise<boolean> {
    return callScript(this.connection.client, expireScript, { model: modelArgs(this.model, this.keysOf(id)), id, ms });
  }

  /** Removes the time to live; false when the object is gone. */
  async persist(id: string): Promise<boolean> {
    return callScript(this.connection.client, persistScript, { model: modelArgs(this.model, this.keysOf(id)), id });
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
    const model = modelArgs(this.model, this.keysOf(id));
    const touching = this.model.indexesTouching(field);
    return callScript(this.connection.client, incrementScript, { model, id, field, amount, touching });
  }

  /** Deletes up to `batch` expired objects (per shard); resolves to how many. */
  async sweep(batch: number): Promise<number> {
    const swept = await Promise.all(this.shards.map((keys) => callScript(this.connection.client, sweepScript, { keys, batch })));
    return swept.reduce((sum, n) => sum + n, 0);
  }
}
