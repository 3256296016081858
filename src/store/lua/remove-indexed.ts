import { ModelKeys } from '../../keys/model-keys';
import { IndexDescriptor } from '../../model/index-descriptor';
import { EntryScript } from '../entry-script';
import { indexedRemovalScript } from '../indexed-removal';
import type { RemoveOutcome } from '../outcomes';
import { existedOf } from './remove';

/** remove-indexed.lua: delete one object whose model keeps index entries and nothing else beside it (see its header). */
export interface RemoveIndexedInput {
  readonly keys: ModelKeys;
  readonly id: string;
  /** The model's indexes: the function runs as the copy bound to their SPEC (indexed-removal.ts). */
  readonly indexes: readonly IndexDescriptor[];
}

export const removeIndexedScript: EntryScript<RemoveIndexedInput, RemoveOutcome> = {
  function: ({ indexes }) => indexedRemovalScript(indexes),
  keys: ({ keys, id }) => [keys.all, keys.object(id), keys.base],
  args: ({ id }) => [id],
  reply: existedOf,
};
