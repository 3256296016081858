import { ModelKeys } from '../../keys/model-keys';
import { EntryScript } from '../entry-script';
import { IndexSpec, pushIndexSpecs } from '../index-specs';
import { scripts } from '../scripts';

/** trim-cap.lua: trim one capped index key back to its first `keep` objects (see its header). */
export interface TrimCapInput {
  readonly keys: ModelKeys;
  /** The cap's index key: the model's, or one group's of a cap per value. */
  readonly key: string;
  readonly keep: number;
  readonly order: 'asc' | 'desc';
  readonly sequenceIds: boolean;
  /** Every index of the model. */
  readonly indexes: readonly IndexSpec[];
}

/** How many objects were evicted. */
export const trimCapScript: EntryScript<TrimCapInput, number> = {
  function: () => scripts.trimCap(),
  keys: ({ keys, key }) => [keys.all, keys.base, key],
  args({ keep, order, sequenceIds, indexes }) {
    const args: Array<string | Buffer> = [String(keep), order, sequenceIds ? '1' : '0'];
    pushIndexSpecs(args, indexes);
    return args;
  },
  reply: (reply) => Number(reply),
};
