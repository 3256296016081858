import { ModelKeys } from '../../keys/model-keys';
import { EntryScript } from '../entry-script';
import { scripts } from '../scripts';

/** repair-expiry.lua: give back their `exp` entries to objects whose hash has a TTL (see its header). */
export interface RepairExpiryInput {
  readonly keys: ModelKeys;
  /** One batch of ids of `all`. */
  readonly ids: readonly string[];
}

/** How many `exp` entries were written. */
export const repairExpiryScript: EntryScript<RepairExpiryInput, number> = {
  function: () => scripts.repairExpiry(),
  keys: ({ keys }) => [keys.base],
  args: ({ ids }) => [...ids],
  reply: (reply) => Number(reply),
};
