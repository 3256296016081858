import { ModelKeys } from '../../keys/model-keys';
import { EntryScript } from '../entry-script';
import { scripts } from '../scripts';

/** sweep.lua: delete up to `batch` objects whose time has come, with their entries (see its header). */
export interface SweepInput {
  readonly keys: ModelKeys;
  readonly batch: number;
}

/** How many objects were deleted. */
export const sweepScript: EntryScript<SweepInput, number> = {
  function: () => scripts.sweep(),
  keys: ({ keys }) => [keys.all, keys.base],
  args: ({ batch }) => [String(batch)],
  reply: (reply) => Number(reply),
};
