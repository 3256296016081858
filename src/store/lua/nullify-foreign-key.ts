import { ModelKeys } from '../../keys/model-keys';
import { EntryScript } from '../entry-script';
import { IndexSpec, pushIndexSpecs } from '../index-specs';
import { scripts } from '../scripts';

/** nullify-foreign-key.lua: clear a foreign key that names a parent which does not exist (see its header). */
export interface NullifyForeignKeyInput {
  readonly child: ModelKeys;
  readonly parent: ModelKeys;
  readonly id: string;
  readonly foreignKey: string;
  /** The parent id the field was seen to hold. */
  readonly parentId: string;
  /** The child's indexes on or scoped by the foreign key. */
  readonly indexes: readonly IndexSpec[];
}

/** Whether the field was cleared (false: it changed meanwhile, or the parent exists now). */
export const nullifyForeignKeyScript: EntryScript<NullifyForeignKeyInput, boolean> = {
  function: () => scripts.nullifyForeignKey(),
  keys: ({ child, parent }) => [child.all, child.base, parent.all, parent.base],
  args({ id, foreignKey, parentId, indexes }) {
    const args: Array<string | Buffer> = [id, foreignKey, parentId];
    pushIndexSpecs(args, indexes);
    return args;
  },
  reply: (reply) => Number(reply) === 1,
};
