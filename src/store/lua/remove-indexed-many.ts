import { ModelKeys } from '../../keys/model-keys';
import { IndexDescriptor } from '../../model/index-descriptor';
import { EntryScript } from '../entry-script';
import { indexedRemovalManyScript } from '../indexed-removal';
import type { RemoveOutcome } from '../outcomes';
import { existedOf } from './remove';

/** remove-indexed-many.lua: delete many objects as remove-indexed.lua deletes one (see its header). */
export interface RemoveIndexedManyInput {
  readonly keys: ModelKeys;
  readonly ids: readonly string[];
  /** The model's indexes: the function runs as the copy bound to their SPEC (indexed-removal.ts). */
  readonly indexes: readonly IndexDescriptor[];
}

/** One outcome per id, in order. */
export const removeIndexedManyScript: EntryScript<RemoveIndexedManyInput, RemoveOutcome[]> = {
  function: ({ indexes }) => indexedRemovalManyScript(indexes),
  keys: ({ keys }) => [keys.all, keys.base],
  args: ({ ids }) => [...ids],
  reply: (reply) => (reply as unknown[]).map(existedOf),
};
