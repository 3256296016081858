import { ModelKeys } from '../../keys/model-keys';
import { IndexDescriptor } from '../../model/index-descriptor';
import { EntryScript } from '../entry-script';
import { pushSpecs } from '../index-specs';
import { scripts } from '../scripts';

/** replace-children.lua: make a has-many's children exactly the given objects (see its header). */
export interface ReplaceChildrenInput {
  /** The parent's hash and id. */
  readonly parentObject: string;
  readonly parentId: string;
  readonly child: ModelKeys;
  readonly foreignKey: string;
  /** The child model's indexes on or scoped by the foreign key. */
  readonly indexes: readonly IndexDescriptor[];
  /** The children, each once. */
  readonly ids: readonly string[];
}

/** Done; a parent or child that is not live; or a child refused for a unique value: nothing written. */
export type ReplaceChildrenOutcome =
  { done: true } | { missing: 'self' } | { missing: 'other'; id: string } | { unique: string; id: string; value: string };

export const replaceChildrenScript: EntryScript<ReplaceChildrenInput, ReplaceChildrenOutcome> = {
  function: () => scripts.replaceChildren(),
  keys: ({ parentObject, child }) => [parentObject, child.all, child.base],
  args({ parentId, foreignKey, indexes, ids }) {
    const args: Array<string | Buffer> = [parentId, foreignKey];
    pushSpecs(args, indexes);
    args.push(...ids);
    return args;
  },
  reply(reply) {
    if (!Array.isArray(reply)) return { done: true };
    if (reply[0] === 'unique') return { unique: String(reply[1]), id: String(reply[2]), value: String(reply[3]) };
    return reply[1] === 'self' ? { missing: 'self' } : { missing: 'other', id: String(reply[2]) };
  },
};
