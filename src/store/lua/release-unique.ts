import { EntryScript } from '../entry-script';
import { scripts } from '../scripts';

/** release-unique.lua: free the claim of a unique value an object no longer holds (see its header). */
export interface ReleaseUniqueInput {
  readonly key: string;
  /** The object letting the value go. */
  readonly holder: string;
  /** The exact claim ('<id> <ms>') to delete; undefined: any claim of `holder`. */
  readonly claim?: string;
}

/** Whether the claim was deleted. */
export const releaseUniqueScript: EntryScript<ReleaseUniqueInput, boolean> = {
  function: () => scripts.releaseUnique(),
  keys: ({ key }) => [key],
  args: ({ holder, claim }) => (claim === undefined ? [holder] : [holder, claim]),
  reply: (reply) => Number(reply) === 1,
};
