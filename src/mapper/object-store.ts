import { Connection } from '../connection/connection';
import { IndexDescriptor, scriptKind } from '../metadata/index-descriptor';
import { ModelDescriptor } from '../metadata/model-descriptor';
import { scripts } from '../scripts/scripts';
import { ChangeSet } from './change-set';
import { EncodedFields } from './encoded-fields';
import { fieldsFromReply } from './attribute-encoder';

/** What a save came to: the id, the object being gone (or the id taken), or a unique value held by another. */
export type SaveOutcome = { id: string } | { missing: true } | { uniqueTaken: string };

/**
 * Turns entity changes into one atomic script call each: the persistence pattern of docs/consistency.md.
 * It knows keys, index specs and scripts, not entities.
 */
export class ObjectStore {
  constructor(
    private readonly model: ModelDescriptor,
    private readonly connection: Connection,
  ) {}

  private get keys() {
    return this.model.keys(this.connection.prefix);
  }

  /** Inserts a new object with its index entries; `id` undefined takes the next sequence value. */
  insert(fields: EncodedFields, id?: string): Promise<SaveOutcome> {
    return this.save('c', id ?? '', { set: fields, removed: [] }, this.model.indexes, this.model.ttlMs);
  }

  /** Applies a change set and moves the index entries it touches. */
  update(id: string, changes: ChangeSet): Promise<SaveOutcome> {
    const touched = new Set<IndexDescriptor>();
    for (const field of [...changes.set.keys(), ...changes.removed]) {
      for (const index of this.model.indexesTouching(field)) touched.add(index);
    }
    return this.save('u', id, changes, [...touched]);
  }

  private async save(
    mode: 'c' | 'u',
    id: string,
    changes: ChangeSet,
    indexes: Iterable<IndexDescriptor>,
    ttlMs?: number,
  ): Promise<SaveOutcome> {
    const keys = this.keys;
    const args = [mode, id, ttlMs === undefined ? '' : String(ttlMs), String(changes.set.size)];
    for (const [field, value] of changes.set) args.push(field, value);
    args.push(String(changes.removed.length), ...changes.removed);
    pushSpecs(args, [...indexes]);
    const reply = await scripts.save().run(this.connection.client, [keys.sequence, keys.all, keys.base], args);
    if (reply === null) return { missing: true };
    if (Array.isArray(reply)) return { uniqueTaken: String(reply[1]) };
    return { id: String(reply) };
  }

  /** Deletes an object and its index entries; resolves to whether it existed. */
  async remove(id: string): Promise<boolean> {
    const keys = this.keys;
    const args = [id];
    pushSpecs(args, this.model.indexes);
    const reply = await scripts.remove().run(this.connection.client, [keys.all, keys.object(id), keys.base], args);
    return Number(reply) === 1;
  }

  /** Reads any number of objects in one round trip; null where an id does not exist. */
  async loadMany(ids: readonly string[]): Promise<Array<EncodedFields | null>> {
    if (ids.length === 0) return [];
    const keys = this.keys;
    const reply = (await scripts.load().run(
      this.connection.client,
      [keys.all, ...ids.map((id) => keys.object(id))],
      ids as string[],
    )) as Array<string[] | null>;
    return reply.map((item) => (item ? fieldsFromReply(item) : null));
  }

  /** A live object always has its hash (it holds `#id`), and an expired one has none. */
  async exists(id: string): Promise<boolean> {
    return (await this.connection.client.exists(this.keys.object(id))) === 1;
  }

  /** Live objects: expired ones not yet swept are not counted. */
  async count(): Promise<number> {
    const keys = this.keys;
    return Number(await scripts.count().run(this.connection.client, [keys.all, keys.expiring], []));
  }

  /** Sets a time to live; false when the object is gone. */
  async expire(id: string, ms: number): Promise<boolean> {
    const keys = this.keys;
    const args = [id, String(ms)];
    pushSpecs(args, this.model.indexes);
    return Number(await scripts.expire().run(this.connection.client, [keys.all, keys.object(id), keys.base], args)) === 1;
  }

  /** Removes the time to live; false when the object is gone. */
  async persist(id: string): Promise<boolean> {
    const keys = this.keys;
    return Number(await scripts.persist().run(this.connection.client, [keys.all, keys.object(id), keys.base], [id])) === 1;
  }

  /** Milliseconds left; null without a TTL; undefined when the object is gone. */
  async ttl(id: string): Promise<number | null | undefined> {
    const left = await this.connection.client.pTTL(this.keys.object(id));
    if (left === -2) return undefined;
    return left === -1 ? null : left;
  }

  /** Deletes up to `batch` expired objects; resolves to how many. */
  async sweep(batch: number): Promise<number> {
    const keys = this.keys;
    return Number(await scripts.sweep().run(this.connection.client, [keys.all, keys.base], [String(batch)]));
  }
}

function pushSpecs(args: string[], indexes: readonly IndexDescriptor[]): void {
  args.push(String(indexes.length));
  for (const index of indexes) args.push(scriptKind(index), index.attribute.field, index.scope?.field ?? '');
}
