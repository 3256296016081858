import { activeConnection } from '../redis/connection';
import type { RedisCommands } from '../redis/redis-commands';
import { RelationError } from '../errors/errors';
import { namingWrongType } from '../store/expect-types';
import type { ModelDescriptor } from '../model/model-descriptor';
import type { RelationDescriptor } from '../model/relation-descriptor';
import { callScript } from '../store/entry-script';
import { MembershipOutcome, membershipScript } from '../store/lua/membership';
import type { Persisted } from '../types/entity-types';
import type { FindManyOptions } from '../types/bulk-types';
import { refuseArguments, refuseExtraArguments } from '../errors/no-arguments';
import { findManyChunkSize } from '../entity/bulk/find-many';
import { relatedId } from '../model/related-id';
import { ownerIdOf, relationBrand, RelationHandle, RelationOwner } from './relation-handle';
import { inverseSetPrefix } from '../model/relation-graph';
import { inSameTenant } from '../model/tenant-scope';

type ManyToManyRelation = Extract<RelationDescriptor, { kind: 'manyToMany' }>;
type Related<T> = { findMany(ids: readonly string[], options?: FindManyOptions): Promise<Array<Persisted<T> | null>> };

/**
 * `user.tags`: a many-to-many membership, kept as a set of ids on each side (`<base>:rel:<property>:<id>`
 * and the other side's set); add and remove change both sides in one script. Every method is async, so bad
 * input (an unsaved owner, an object that is not a target instance, a malformed id) is a rejection, and it is
 * found before any command is sent. A set of another Redis type is a WrongTypeError naming it, from the reads
 * as from add and remove (which then write nothing). `ids` and `count` take no arguments, and refuse one given
 * (a where or `{ limit }` would otherwise be dropped and every member answered); `list` takes the options of the
 * target model's findMany, which reads the objects, and passes them on.
 */
export class ManyToManyHandle<T> implements RelationHandle {
  /** @hidden */
  declare readonly [relationBrand]: true;

  constructor(
    private readonly owner: RelationOwner,
    private readonly relation: ManyToManyRelation,
  ) {}

  /** Adds the membership (both objects must exist: RelationError otherwise). Adding twice is harmless. */
  async add(related: T | string | number): Promise<void> {
    refuseExtraArguments(`${this.name()}.add`, arguments, 1, 'an object or an id');
    const outcome = await this.change('add', related);
    if ('missing' in outcome) {
      const which = outcome.missing === 'self' ? this.owner.model().name : this.targetModel().name;
      throw new RelationError(`${this.name()}: the ${which} object does not exist`);
    }
  }

  /** Removes the membership from both sides; removing one that is not there is harmless. */
  async remove(related: T | string | number): Promise<void> {
    refuseExtraArguments(`${this.name()}.remove`, arguments, 1, 'an object or an id');
    await this.change('remove', related);
  }

  /** Whether the membership is there (this side's set names the object). */
  async has(related: T | string | number): Promise<boolean> {
    refuseExtraArguments(`${this.name()}.has`, arguments, 1, 'an object or an id');
    const reply = await this.readMine((client, mine) => client.sIsMember(mine, this.idOf(related)));
    return Number(reply) === 1;
  }

  /** The related ids, in id order. */
  async ids(): Promise<string[]> {
    refuseArguments(`${this.name()}.ids`, arguments);
    const ids = (await this.readMine((client, mine) => client.sMembers(mine))) as string[];
    return ids.sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  }

  /**
   * The related objects, in id order (one round trip for the ids, one for the objects, or one per chunk with
   * `chunkSize`): `options` as the target model's findMany takes them, refused as it refuses them.
   */
  async list(options?: FindManyOptions): Promise<Array<Persisted<T>>> {
    findManyChunkSize(`${this.name()}.list`, options); // before the ids are read
    const ids = await this.ids();
    const found = await (this.targetModel().ctor as unknown as Related<T>).findMany(ids, options);
    return found.filter((item): item is Persisted<T> => item !== null);
  }

  /** How many ids the owner's side of the membership holds (an expired or evicted object still counts, as in ids()). */
  async count(): Promise<number> {
    refuseArguments(`${this.name()}.count`, arguments);
    return Number(await this.readMine((client, mine) => client.sCard(mine)));
  }

  /**
   * A read of this side's set: Redis's WRONGTYPE on a set of another type becomes the WrongTypeError naming it
   * (namingWrongType: one more call, made on that failure only).
   */
  private readMine<R>(read: (client: RedisCommands, mine: string) => Promise<R>): Promise<R> {
    const { client } = activeConnection();
    const mine = this.mine();
    return read(client, mine).catch((error: unknown) => namingWrongType(client, error, [[mine, 'set']]));
  }

  private async change(action: 'add' | 'remove', related: T | string | number): Promise<MembershipOutcome> {
    const { client, prefix } = activeConnection();
    const model = this.owner.model();
    const ownerId = this.ownerId();
    const memberId = this.idOf(related);
    return callScript(client, membershipScript, {
      action,
      ownerId,
      memberId,
      ownerObject: model.keys(prefix).object(ownerId),
      memberObject: this.targetModel().keys(prefix).object(memberId),
      ownerSet: this.mine(),
      memberSet: inverseSetPrefix(model, this.relation, prefix) + memberId,
    });
  }

  private mine(): string {
    const { prefix } = activeConnection();
    return `${this.owner.model().keys(prefix).base}:rel:${this.relation.property}:${this.ownerId()}`;
  }

  private ownerId(): string {
    return ownerIdOf(this.owner);
  }

  /** The related object's id: an id, or an instance of the target in the owner's tenant scope (relatedId). */
  private idOf(related: T | string | number): string {
    return relatedId(this.targetModel(), related, () => this.name());
  }

  /** `User.tags`, for messages. */
  private name(): string {
    return `${this.owner.model().name}.${this.relation.property}`;
  }

  private targetModel(): ModelDescriptor {
    return inSameTenant(this.owner.model(), this.relation.target());
  }
}
