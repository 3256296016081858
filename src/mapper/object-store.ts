import { Connection } from '../connection/connection';
import { ModelDescriptor } from '../metadata/model-descriptor';
import { scripts } from '../scripts/scripts';
import { ChangeSet } from './change-set';
import { EncodedFields } from './encoded-fields';
import { fieldsFromReply } from './attribute-encoder';

/**
 * Turns entity changes into one atomic script call each: the persistence pattern of docs/consistency.md.
 * It knows keys and scripts, not entities.
 */
export class ObjectStore {
  constructor(
    private readonly model: ModelDescriptor,
    private readonly connection: Connection,
  ) {}

  private get keys() {
    return this.model.keys(this.connection.prefix);
  }

  /** Inserts a new object; `id` undefined takes the next sequence value. Resolves to the id, or null if `id` exists. */
  async insert(fields: EncodedFields, id?: string): Promise<string | null> {
    const keys = this.keys;
    const args = [id ?? ''];
    for (const [field, value] of fields) args.push(field, value);
    const reply = await scripts.create().run(this.connection.client, [keys.sequence, keys.all, keys.objectPrefix], args);
    return reply === null ? null : String(reply);
  }

  /** Applies a change set; resolves to false when the object no longer exists (nothing written). */
  async update(id: string, changes: ChangeSet): Promise<boolean> {
    const keys = this.keys;
    const args = [id, String(changes.set.size)];
    for (const [field, value] of changes.set) args.push(field, value);
    args.push(...changes.removed);
    const reply = await scripts.update().run(this.connection.client, [keys.all, keys.object(id)], args);
    return Number(reply) === 1;
  }

  /** Deletes an object; resolves to whether it existed. */
  async remove(id: string): Promise<boolean> {
    const keys = this.keys;
    const reply = await scripts.remove().run(this.connection.client, [keys.all, keys.object(id)], [id]);
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

  async exists(id: string): Promise<boolean> {
    return (await this.connection.client.zScore(this.keys.all, id)) !== null;
  }

  async count(): Promise<number> {
    return this.connection.client.zCard(this.keys.all);
  }
}
