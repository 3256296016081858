import { EntryScript } from '../entry-script';
import { scripts } from '../scripts';

/** A key and the Redis type it must hold, as TYPE names it (string, hash, set, zset). */
export type KeyType = readonly [key: string, type: string];

/** expect-types.lua: refuse the first key (of one hash tag) holding another type than its own (see its header). */
export const expectTypesScript: EntryScript<readonly KeyType[], void> = {
  function: () => scripts.expectTypes(),
  keys: (expected) => expected.map(([key]) => key),
  args: (expected) => expected.map(([, type]) => type),
  reply: () => undefined,
};
