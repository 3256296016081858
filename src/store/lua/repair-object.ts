import { ModelKeys } from '../../keys/model-keys';
import { EntryScript } from '../entry-script';
import { IndexSpec, pushIndexSpecs } from '../index-specs';
import { idFormOf } from '../model-args';
import { scripts } from '../scripts';

/** One case-insensitive unique attribute of an object: the attribute, its stored value, that value folded. */
export type Fold = readonly [attribute: string, value: string, folded: string];

/** repair-object.lua: rewrite one object's entries (and memo) from its stored values (see its header). */
export interface RepairObjectInput {
  /** The keys of the object's model (of its shard). */
  readonly keys: ModelKeys;
  readonly id: string;
  readonly sequenceIds: boolean;
  /** The model's objects keep a memo of their entries (a ttl or a cap). */
  readonly keepsMemo: boolean;
  /** 'full' rewrites every entry; 'add' only adds those of `indexes` (reindex of added indexes). */
  readonly mode: 'full' | 'add';
  readonly folds: readonly Fold[];
  readonly indexes: readonly IndexSpec[];
}

/** The outcome as repair-object.lua names it ('repaired', 'conflict', 'unlistable', ...). */
export const repairObjectScript: EntryScript<RepairObjectInput, string> = {
  function: () => scripts.repairObject(),
  keys: ({ keys }) => [keys.all, keys.base, keys.sequence],
  args({ keys, id, sequenceIds, keepsMemo, mode, folds, indexes }) {
    const args: Array<string | Buffer> = [id, idFormOf(sequenceIds, keys), keepsMemo ? '1' : '0', mode, String(folds.length)];
    for (const fold of folds) args.push(...fold);
    pushIndexSpecs(args, indexes);
    return args;
  },
  reply: (reply) => String(reply),
};
