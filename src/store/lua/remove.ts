import { ModelKeys } from '../../keys/model-keys';
import { EntryScript } from '../entry-script';
import type { RemoveOutcome } from '../outcomes';
import { scripts } from '../scripts';

/** remove.lua: delete one object with its entries and what depends on it (see its header). */
export interface RemoveInput {
  readonly keys: ModelKeys;
  readonly id: string;
  /** The model table (removal-program.ts): this model first, then the models that depend on it. */
  readonly table: readonly string[];
}

export const removeScript: EntryScript<RemoveInput, RemoveOutcome> = {
  function: () => scripts.remove(),
  keys: ({ keys, id }) => [keys.all, keys.object(id), keys.base],
  args: ({ id, table }) => [id, ...table],
  reply: (reply) => removeOutcomeOf(reply),
};

/** 1 when the object was in `all` (remove-indexed.lua's, remove-memo.lua's reply; each of remove-indexed-many.lua's). */
export const existedOf = (reply: unknown): RemoveOutcome => ({ existed: Number(reply) === 1 });

/** remove.lua's reply (and each of remove-many.lua's): existed as existedOf, or the restrict rule that refused. */
export const removeOutcomeOf = (reply: unknown): RemoveOutcome =>
  Array.isArray(reply) ? { restrictedBy: { model: Number(reply[1]), foreignKey: String(reply[2]) } } : existedOf(reply);
