import { ModelKeys } from '../../keys/model-keys';
import { EntryScript } from '../entry-script';
import { scripts } from '../scripts';

/** count.lua: the number of live objects of a model (see its header). */
export const countScript: EntryScript<ModelKeys, number> = {
  function: () => scripts.count(),
  keys: (keys) => [keys.all, keys.expiring],
  args: () => [],
  reply: (reply) => Number(reply),
};
