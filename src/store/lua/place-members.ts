import { EntryScript } from '../entry-script';
import { scripts } from '../scripts';

/** place-members.lua: put objects at a position of an ordered many-to-many list, on both sides (see its header). */
export interface PlaceMembersInput {
  readonly action: 'insert' | 'move';
  readonly ownerId: string;
  /** The owner's hash and its ordered list. */
  readonly ownerObject: string;
  readonly ownerList: string;
  /** 0-based, counted among the members that stay; -1: the end. */
  readonly position: number;
  /** Whether the objects' sides (holding the owner's id) are ordered lists too. */
  readonly otherOrdered: boolean;
  /** The objects placed, each once, with their hash and their side. */
  readonly members: ReadonlyArray<{ readonly id: string; readonly object: string; readonly side: string }>;
}

/** Done; the object that does not exist ('self': the owner); or, moving, a member that is not in the list. */
export type PlaceMembersOutcome = { done: true } | { missing: 'self' } | { missing: 'other'; id: string } | { absent: true };

export const placeMembersScript: EntryScript<PlaceMembersInput, PlaceMembersOutcome> = {
  function: () => scripts.placeMembers(),
  keys: ({ ownerObject, ownerList, members }) => [ownerObject, ownerList, ...members.flatMap((m) => [m.object, m.side])],
  args: ({ ownerId, position, otherOrdered, action, members }) => [
    ownerId,
    String(position),
    otherOrdered ? '1' : '0',
    action,
    ...members.map((m) => m.id),
  ],
  reply: (reply) => listOutcome(reply),
};

/** The reply of place-members.lua and replace-members.lua: 1, or what refused the call. */
export function listOutcome(reply: unknown): PlaceMembersOutcome {
  if (!Array.isArray(reply)) return { done: true };
  if (reply[0] === 'absent') return { absent: true };
  return reply[1] === 'self' ? { missing: 'self' } : { missing: 'other', id: String(reply[2]) };
}
