import { ModelKeys } from '../../keys/model-keys';
import { EntryScript } from '../entry-script';
import type { RemoveOutcome } from '../outcomes';
import { scripts } from '../scripts';
import { removeOutcomeOf } from './remove';

/** remove-many.lua: delete many objects of one key base, each as remove.lua deletes one (see its header). */
export interface RemoveManyInput {
  readonly keys: ModelKeys;
  readonly ids: readonly string[];
  /** The model table, as remove.lua's. */
  readonly table: readonly string[];
}

/** One outcome per id, in order. */
export const removeManyScript: EntryScript<RemoveManyInput, RemoveOutcome[]> = {
  function: () => scripts.removeMany(),
  keys: ({ keys }) => [keys.all, keys.base],
  args: ({ ids, table }) => [String(ids.length), ...ids, ...table],
  reply: (reply) => (reply as unknown[]).map(removeOutcomeOf),
};
