import { EntryScript } from '../entry-script';
import { scripts } from '../scripts';

/** raise-sequence.lua: raise a model's id sequence to at least the largest id in use (see its header). */
export interface RaiseSequenceInput {
  /** The model's `seq` (a shard's, for a sharded model). */
  readonly sequence: string;
  /** How many values it must have drawn. */
  readonly atLeast: number;
}

/** The sequence's value afterwards. */
export const raiseSequenceScript: EntryScript<RaiseSequenceInput, number> = {
  function: () => scripts.raiseSequence(),
  keys: ({ sequence }) => [sequence],
  args: ({ atLeast }) => [String(atLeast)],
  reply: (reply) => Number(reply),
};
