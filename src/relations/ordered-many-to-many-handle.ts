import { activeConnection } from '../redis/connection';
import { ArgumentError, RelationError } from '../errors/errors';
import { callScript } from '../store/entry-script';
import { PlaceMembersInput, placeMembersScript } from '../store/lua/place-members';
import { describeValue } from '../util/describe-value';
import { refuseExtraArguments } from '../errors/no-arguments';
import { ManyToManyHandle } from './many-to-many-handle';
import { missingObject, placedMembers } from './member-sides';

/**
 * `post.tags` of `@ManyToMany(() => Tag, { ordered: true })`: a many-to-many whose own side keeps its members in
 * the order they are put in, as a sorted set of positions (docs/design/collections.md). Beside the handle's
 * methods (ids, list and findBy in the list's order), it places members: each call is one script that changes
 * both sides, and an object already in the list is moved rather than listed twice. Positions are 0-based and
 * counted among the members that stay where they are; one past the end (or more) is the end.
 */
export class OrderedManyToManyHandle<T> extends ManyToManyHandle<T> {
  /** Appends the objects, in the order given (each must exist: RelationError otherwise, nothing changes). */
  async push(...related: Array<T | string | number>): Promise<void> {
    await this.place('push', -1, related);
  }

  /** Puts the objects at the front, in the order given (as Array's unshift). */
  async unshift(...related: Array<T | string | number>): Promise<void> {
    await this.place('unshift', 0, related);
  }

  /** Puts the objects at `index`, in the order given: the first of them is then at `index`. */
  async insertAt(index: number, ...related: Array<T | string | number>): Promise<void> {
    await this.place('insertAt', this.position('insertAt', index), related);
  }

  /** Moves a member to `index` (RelationError when it is not in the list; nothing changes). */
  async move(related: T | string | number, index: number): Promise<void> {
    refuseExtraArguments(`${this.name()}.move`, arguments, 2, 'an object or an id and an index');
    const position = this.position('move', index);
    const outcome = await this.run('move', position, [this.idOf(related)]);
    if ('absent' in outcome) throw new RelationError(`${this.name()}.move: ${JSON.stringify(this.idOf(related))} is not in the list`);
  }

  private async place(operation: string, position: number, related: Array<T | string | number>): Promise<void> {
    const ids = related.map((item) => this.idOf(item));
    this.ownerId(); // an owner without an id is refused even with nothing to place
    if (ids.length === 0) return;
    const outcome = await this.run('insert', position, ids);
    if ('missing' in outcome) throw missingObject(`${this.name()}.${operation}`, this.sides(), outcome);
  }

  private run(action: PlaceMembersInput['action'], position: number, ids: readonly string[]) {
    const { client, prefix } = activeConnection();
    const sides = this.sides();
    return callScript(client, placeMembersScript, {
      action,
      ownerId: this.ownerId(),
      ownerObject: sides.owner.keys(prefix).object(this.ownerId()),
      ownerList: sides.mine,
      position,
      otherOrdered: sides.otherOrdered,
      members: placedMembers(sides, prefix, ids),
    });
  }

  private position(operation: string, index: unknown): number {
    if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) {
      throw new ArgumentError(`${this.name()}.${operation}: the index must be a whole number >= 0, got ${describeValue(index)}`);
    }
    return index;
  }
}
