import { EntryScript } from '../entry-script';
import { scripts } from '../scripts';
import { listOutcome } from './place-members';

/** replace-members.lua: make one many-to-many side's members exactly the given objects (see its header). */
export interface ReplaceMembersInput {
  readonly ownerId: string;
  /** The owner's hash and its set (or ordered list) of related ids. */
  readonly ownerObject: string;
  readonly ownerSet: string;
  readonly ordered: boolean;
  /** The related model's `all`, declared for Cluster's slot check. */
  readonly relatedAll: string;
  /** Whether the members' sides are ordered lists, and the prefix of those sides (a member's id appended). */
  readonly otherOrdered: boolean;
  readonly otherPrefix: string;
  /** The new members, each once, in list order, with their hash and their side. */
  readonly members: ReadonlyArray<{ readonly id: string; readonly object: string; readonly side: string }>;
}

/** Done, or the object that does not exist: nothing written. */
export type ReplaceMembersOutcome = { done: true } | { missing: 'self' } | { missing: 'other'; id: string };

export const replaceMembersScript: EntryScript<ReplaceMembersInput, ReplaceMembersOutcome> = {
  function: () => scripts.replaceMembers(),
  keys: ({ ownerObject, ownerSet, relatedAll, members }) => [
    ownerObject,
    ownerSet,
    relatedAll,
    ...members.flatMap((m) => [m.object, m.side]),
  ],
  args: ({ ownerId, ordered, otherOrdered, otherPrefix, members }) => [
    ownerId,
    ordered ? '1' : '0',
    otherOrdered ? '1' : '0',
    otherPrefix,
    ...members.map((m) => m.id),
  ],
  reply: (reply) => listOutcome(reply) as ReplaceMembersOutcome,
};
