import { ModelKeys } from '../../keys/model-keys';
import { EntryScript } from '../entry-script';
import { IndexSpec, pushSpec } from '../index-specs';
import { scripts } from '../scripts';

/** repair-entries.lua: remove index entries that name no live object or do not match it (see its header). */
export interface RepairEntriesInput {
  readonly keys: ModelKeys;
  /** The index key, and the index's spec. */
  readonly key: string;
  readonly index: IndexSpec;
  /** The members (a unique index: the values) to check, as the bytes Redis holds (latin1 strings). */
  readonly members: readonly string[];
}

/** How many entries were removed. */
export const repairEntriesScript: EntryScript<RepairEntriesInput, number> = {
  function: () => scripts.repairEntries(),
  keys: ({ keys, key }) => [keys.all, keys.base, key],
  args({ index, members }) {
    const args: Array<string | Buffer> = [];
    pushSpec(args, index);
    for (const member of members) args.push(Buffer.from(member, 'latin1'));
    return args;
  },
  reply: (reply) => Number(reply),
};
