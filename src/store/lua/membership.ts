import { EntryScript } from '../entry-script';
import { scripts } from '../scripts';

/** membership.lua: add or remove one many-to-many membership on both sides (see its header). */
export interface MembershipInput {
  readonly action: 'add' | 'remove';
  readonly ownerId: string;
  readonly memberId: string;
  /** The owner's hash, the member's hash. */
  readonly ownerObject: string;
  readonly memberObject: string;
  /** The owner's set of related ids, and the member's set holding the owner's side's ids. */
  readonly ownerSet: string;
  readonly memberSet: string;
  /** Whether the owner's set, and whether the member's, is an ordered list (a sorted set of positions). */
  readonly ownerOrdered: boolean;
  readonly memberOrdered: boolean;
}

/** Done; or, adding, the object that does not exist ('self': the owner, 'other': the member): nothing written. */
export type MembershipOutcome = { done: true } | { missing: 'self' | 'other' };

export const membershipScript: EntryScript<MembershipInput, MembershipOutcome> = {
  function: () => scripts.membership(),
  keys: ({ ownerObject, memberObject, ownerSet, memberSet }) => [ownerObject, memberObject, ownerSet, memberSet],
  args: ({ action, ownerId, memberId, ownerOrdered, memberOrdered }) => [
    action,
    ownerId,
    memberId,
    ownerOrdered ? '1' : '0',
    memberOrdered ? '1' : '0',
  ],
  reply: (reply) => (Array.isArray(reply) ? { missing: reply[1] === 'self' ? 'self' : 'other' } : { done: true }),
};
