import { EntryScript } from '../entry-script';
import { ModelArgs } from '../model-args';
import { scripts } from '../scripts';

/** persist.lua: remove the time to live of one live object (see its header). */
export interface PersistInput {
  readonly model: ModelArgs;
  readonly id: string;
}

/** False when the object is gone. */
export const persistScript: EntryScript<PersistInput, boolean> = {
  function: () => scripts.persist(),
  keys: ({ model: { keys }, id }) => [keys.all, keys.object(id), keys.base],
  args: ({ model, id }) => [id, model.keepsMemo],
  reply: (reply) => Number(reply) === 1,
};
