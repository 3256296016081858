import { EntryScript } from '../entry-script';
import { scripts } from '../scripts';

/** claim-unique.lua: claim one unique value of a sharded model for an object (see its header). */
export interface ClaimUniqueInput {
  /** The value's claim key (src/keys/claim-keys.ts). */
  readonly key: string;
  readonly id: string;
  /** '' to claim a free value; else the exact stale claim to replace. */
  readonly replace: string;
}

/**
 * 'took': the claim is now the object's and was not; 'held': it was the object's already (not the caller's to
 * release); else the claim standing in the way ('<id> <ms>') and its age in ms.
 */
export type ClaimReply = { readonly claimed: 'took' | 'held' } | { readonly standing: string; readonly age: number };

export const claimUniqueScript: EntryScript<ClaimUniqueInput, ClaimReply> = {
  function: () => scripts.claimUnique(),
  keys: ({ key }) => [key],
  args: ({ id, replace }) => [id, replace],
  reply(reply) {
    if (!Array.isArray(reply)) return { claimed: Number(reply) === 2 ? 'held' : 'took' };
    return { standing: String(reply[0]), age: Number(reply[1]) };
  },
};
