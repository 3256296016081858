import { activeConnection } from '../redis/connection';
import type { RedisCommands } from '../redis/redis-commands';
import { ArgumentError, RelationError } from '../errors/errors';
import { namingWrongType } from '../store/expect-types';
import { crossSlotMembers } from '../store/cross-slot';
import type { ModelDescriptor } from '../model/model-descriptor';
import type { RelationDescriptor } from '../model/relation-descriptor';
import { callScript } from '../store/entry-script';
import { MembershipOutcome, membershipScript } from '../store/lua/membership';
import { replaceMembersScript } from '../store/lua/replace-members';
import type { Persisted } from '../types/entity-types';
import type { FindManyOptions } from '../types/bulk-types';
import type { ListOptions } from '../types/relation-handle';
import type { FindOptions, Where } from '../types/where-types';
import { describeValue } from '../util/describe-value';
import { refuseArguments, refuseExtraArguments } from '../errors/no-arguments';
import { knownOptions } from '../errors/options-argument';
import { findManyChunkSize } from '../entity/bulk/find-many';
import { findBy } from '../entity/entity-queries';
import { onModel } from '../entity/model-call';
import { relatedId } from '../model/related-id';
import { ownerIdOf, relationBrand, RelationHandle, RelationOwner } from './relation-handle';
import { MemberSides, memberSides, missingObject, placedMembers } from './member-sides';
import { inSameTenant } from '../model/tenant-scope';
import type { MemberKey } from '../query/plan-query';

type ManyToManyRelation = Extract<RelationDescriptor, { kind: 'manyToMany' }>;
/** The entity layer's findBy, typed for the target model `T` (whose class the handle knows as a Function). */
type FindWithin<T> = (ctor: Function, where: Where<T>, options: FindOptions<T>, within: MemberKey) => Promise<Array<Persisted<T>>>;
type Related<T> = { findMany(ids: readonly string[], options?: FindManyOptions): Promise<Array<Persisted<T> | null>> };

/**
 * `user.tags`: a many-to-many membership, kept as a set of ids on each side (`<base>:rel:<property>:<id>`
 * and the other side's set; an ordered side keeps a sorted set of positions instead, see
 * OrderedManyToManyHandle); add, remove and replace change both sides in one script. Every method is async, so
 * bad input (an unsaved owner, an object that is not a target instance, a malformed id) is a rejection, and it
 * is found before any command is sent. A set of another Redis type is a WrongTypeError naming it, from the
 * reads as from the changes (which then write nothing). `ids` and `count` take no arguments, and refuse one
 * given (a where or `{ limit }` would otherwise be dropped and every member answered); `list` takes a page
 * (`offset`, `limit`) and the options of the target model's findMany, which reads the objects.
 */
export class ManyToManyHandle<T> implements RelationHandle {
  /** @hidden */
  declare readonly [relationBrand]: true;

  constructor(
    /** @internal */
    protected readonly owner: RelationOwner,
    /** @internal */
    protected readonly relation: ManyToManyRelation,
  ) {}

  /** Adds the membership (both objects must exist: RelationError otherwise). Adding twice is harmless; an ordered list gets it at its end. */
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

  /**
   * Makes the members exactly `related` (in that order, for an ordered list), on both sides, in one script:
   * every object must exist (RelationError otherwise, and nothing changes). An object given twice counts once.
   */
  async replace(related: ReadonlyArray<T | string | number>): Promise<void> {
    refuseExtraArguments(`${this.name()}.replace`, arguments, 1, 'an array of objects or ids');
    if (!Array.isArray(related))
      throw new ArgumentError(`${this.name()}.replace: expected an array of objects or ids, got ${describeValue(related)}`);
    const ids = related.map((item: T | string | number) => this.idOf(item));
    const { client, prefix } = activeConnection();
    const sides = this.sides();
    const outcome = await callScript(client, replaceMembersScript, {
      ownerId: this.ownerId(),
      ownerObject: sides.owner.keys(prefix).object(this.ownerId()),
      ownerSet: sides.mine,
      ordered: sides.ordered,
      relatedAll: sides.target.keys(prefix).all,
      otherOrdered: sides.otherOrdered,
      otherPrefix: sides.otherPrefix,
      members: placedMembers(sides, prefix, ids),
    });
    if ('missing' in outcome) throw missingObject(this.name(), sides, outcome);
  }

  /** Whether the membership is there (this side's set names the object). */
  async has(related: T | string | number): Promise<boolean> {
    refuseExtraArguments(`${this.name()}.has`, arguments, 1, 'an object or an id');
    const id = this.idOf(related);
    if (this.relation.ordered) return (await this.readMine((client, mine) => client.zScore(mine, id))) !== null;
    return Number(await this.readMine((client, mine) => client.sIsMember(mine, id))) === 1;
  }

  /** The related ids: in the list's order for an ordered relation, else in id order. */
  async ids(): Promise<string[]> {
    refuseArguments(`${this.name()}.ids`, arguments);
    return this.idsIn(0, -1);
  }

  /**
   * The related objects, in the order of ids() (one round trip for the ids, one for the objects, or one per chunk
   * with `chunkSize`): `offset` and `limit` take a page of them (of an ordered list, read from the list alone);
   * `chunkSize` as the target model's findMany takes it. An object gone meanwhile is left out.
   */
  async list(options?: ListOptions): Promise<Array<Persisted<T>>> {
    const operation = `${this.name()}.list`;
    const { offset = 0, limit, ...findOptions } = knownOptions(operation, options, ['offset', 'limit', 'chunkSize']);
    for (const [option, value] of [
      ['offset', offset],
      ['limit', limit ?? 0],
    ] as const) {
      if (!Number.isSafeInteger(value) || value < 0)
        throw new ArgumentError(`${operation}: ${option} must be a whole number >= 0, got ${describeValue(value)}`);
    }
    findManyChunkSize(operation, findOptions); // before the ids are read
    if (limit === 0) return [];
    const ids = await this.idsIn(offset, limit === undefined ? -1 : offset + limit - 1);
    const found = await (this.targetModel().ctor as unknown as Related<T>).findMany(ids, findOptions);
    return found.filter((item): item is Persisted<T> => item !== null);
  }

  /**
   * The members matching `where`, as the target model's findBy finds them (`orderBy`, `offset`, `limit`,
   * `include`), answered inside Redis: the where's index results intersected with this side's members. Without
   * an orderBy, an ordered list's members come in its order, a set's in id order. A where no index answers is a
   * QueryError, as from the model.
   */
  async findBy(where: Where<T> = {}, options: FindOptions<T> = {}): Promise<Array<Persisted<T>>> {
    const sides = this.sides();
    const connection = activeConnection();
    const refused = crossSlotMembers(this.name(), sides.mine, sides.target.keys(connection.prefix).base, connection);
    if (refused) throw refused;
    const within: MemberKey = { key: sides.mine, ordered: sides.ordered };
    return onModel(sides.target.ctor, () => (findBy as unknown as FindWithin<T>)(sides.target.ctor, where, options, within));
  }

  /** How many ids the owner's side of the membership holds (an expired or evicted object still counts, as in ids()). */
  async count(): Promise<number> {
    refuseArguments(`${this.name()}.count`, arguments);
    return Number(await this.readMine((client, mine) => (this.relation.ordered ? client.zCard(mine) : client.sCard(mine))));
  }

  /** The ids from position `from` to `to` (inclusive; -1: the last) of ids()' order. */
  private async idsIn(from: number, to: number): Promise<string[]> {
    if (this.relation.ordered) return this.readMine((client, mine) => client.zRangeByRank(mine, from, to));
    const ids = (await this.readMine((client, mine) => client.sMembers(mine))) as string[];
    ids.sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
    return from === 0 && to < 0 ? ids : ids.slice(from, to < 0 ? undefined : to + 1);
  }

  /**
   * A read of this side's set: Redis's WRONGTYPE on a set of another type becomes the WrongTypeError naming it
   * (namingWrongType: one more call, made on that failure only).
   * @internal
   */
  protected readMine<R>(read: (client: RedisCommands, mine: string) => Promise<R>): Promise<R> {
    const { client } = activeConnection();
    const mine = this.sides().mine;
    return read(client, mine).catch((error: unknown) => namingWrongType(client, error, [[mine, this.relation.ordered ? 'zset' : 'set']]));
  }

  private async change(action: 'add' | 'remove', related: T | string | number): Promise<MembershipOutcome> {
    const { client, prefix } = activeConnection();
    const sides = this.sides();
    const ownerId = this.ownerId();
    const memberId = this.idOf(related);
    return callScript(client, membershipScript, {
      action,
      ownerId,
      memberId,
      ownerObject: sides.owner.keys(prefix).object(ownerId),
      memberObject: sides.target.keys(prefix).object(memberId),
      ownerSet: sides.mine,
      memberSet: sides.otherPrefix + memberId,
      ownerOrdered: sides.ordered,
      memberOrdered: sides.otherOrdered,
    });
  }

  /** @internal The keys of this side and the other, for the owner's id (RelationError for an owner without one). */
  protected sides(): MemberSides {
    return memberSides(this.owner.model(), this.relation, activeConnection().prefix, this.ownerId());
  }

  /** @internal The owner's id (RelationError for an owner without one). */
  protected ownerId(): string {
    return ownerIdOf(this.owner);
  }

  /** @internal The related object's id: an id, or an instance of the target in the owner's tenant scope (relatedId). */
  protected idOf(related: T | string | number): string {
    return relatedId(this.targetModel(), related, () => this.name());
  }

  /** @internal `User.tags`, for messages. */
  protected name(): string {
    return `${this.owner.model().name}.${this.relation.property}`;
  }

  private targetModel(): ModelDescriptor {
    return inSameTenant(this.owner.model(), this.relation.target());
  }
}
