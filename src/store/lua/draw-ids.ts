import { ModelKeys } from '../../keys/model-keys';
import { EntryScript } from '../entry-script';
import { scripts } from '../scripts';

/** draw-ids.lua: draw `count` sequence ids ahead of a bulk create's writes (see its header). */
export interface DrawIdsInput {
  readonly keys: ModelKeys;
  readonly count: number;
}

/** Resolves to the last id drawn, as a number: the ids are the `count` numbers up to it. */
export const drawIdsScript: EntryScript<DrawIdsInput, number> = {
  function: () => scripts.drawIds(),
  keys: ({ keys }) => [keys.sequence, keys.all],
  args: ({ count }) => [String(count)],
  reply: (reply) => Number(reply),
};
