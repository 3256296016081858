import { EntryScript } from '../entry-script';
import { ModelArgs } from '../model-args';
import { pushSpecs } from '../index-specs';
import { scripts } from '../scripts';

/** expire.lua: give one live object a time to live (see its header). */
export interface ExpireInput {
  readonly model: ModelArgs;
  readonly id: string;
  readonly ms: number;
}

/** False when the object is gone. */
export const expireScript: EntryScript<ExpireInput, boolean> = {
  function: () => scripts.expire(),
  keys: ({ model: { keys }, id }) => [keys.all, keys.object(id), keys.base],
  args({ model, id, ms }) {
    const args = [id, String(ms)];
    pushSpecs(args, model.indexes);
    return args;
  },
  reply: (reply) => Number(reply) === 1,
};
