import { ModelKeys } from '../../keys/model-keys';
import { EntryScript } from '../entry-script';
import { scripts } from '../scripts';

/** repair-membership.lua: make one many-to-many membership two-sided, or remove it from both (see its header). */
export interface RepairMembershipInput {
  readonly owner: ModelKeys;
  readonly other: ModelKeys;
  /** The owner's set (holding the other id) and the other's set (holding the owner id). */
  readonly ownerSet: string;
  readonly otherSet: string;
  /** Whether the owner's set, and whether the other's, is an ordered list (a sorted set of positions). */
  readonly ownerOrdered: boolean;
  readonly otherOrdered: boolean;
  readonly ownerId: string;
  readonly otherId: string;
}

/** 'completed' when both objects are live (both sets now hold it), else 'removed'. */
export const repairMembershipScript: EntryScript<RepairMembershipInput, string> = {
  function: () => scripts.repairMembership(),
  keys: ({ owner, other, ownerSet, otherSet }) => [owner.all, owner.base, other.all, other.base, ownerSet, otherSet],
  args: ({ ownerId, otherId, ownerOrdered, otherOrdered }) => [ownerId, otherId, ownerOrdered ? '1' : '0', otherOrdered ? '1' : '0'],
  reply: (reply) => String(reply),
};
