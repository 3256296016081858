import { ModelKeys } from '../../keys/model-keys';
import { EntryScript } from '../entry-script';
import type { RemoveOutcome } from '../outcomes';
import { scripts } from '../scripts';

/** remove-plain.lua: delete objects that keep nothing beside their hash and `all` entry (see its header). */
export interface RemovePlainInput {
  readonly keys: ModelKeys;
  /** The model's objects may have an `exp` entry. */
  readonly expirable: boolean;
  readonly ids: readonly string[];
}

/** One outcome per id, in order: existed when its hash was there. */
export const removePlainScript: EntryScript<RemovePlainInput, RemoveOutcome[]> = {
  function: () => scripts.removePlain(),
  keys: ({ keys }) => [keys.all, keys.base],
  args: ({ expirable, ids }) => [expirable ? '1' : '0', ...ids],
  reply: (reply) => (reply as unknown[]).map((deleted) => ({ existed: Number(deleted) === 1 })),
};
