import { EntryScript } from '../entry-script';
import { memoRemovalScript } from '../indexed-removal';
import type { RemoveOutcome } from '../outcomes';
import { existedOf } from './remove';
import type { RemoveIndexedInput } from './remove-indexed';

/** remove-memo.lua: delete one object that may keep a memo and that nothing depends on (see its header). */
export type RemoveMemoInput = RemoveIndexedInput;

export const removeMemoScript: EntryScript<RemoveMemoInput, RemoveOutcome> = {
  function: ({ indexes }) => memoRemovalScript(indexes),
  keys: ({ keys, id }) => [keys.all, keys.object(id), keys.base],
  args: ({ id }) => [id],
  reply: existedOf,
};
