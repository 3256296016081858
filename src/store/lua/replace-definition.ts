import { EntryScript } from '../entry-script';
import { scripts } from '../scripts';

/** replace-definition.lua: replace a stored definition only while it is the one read (see its header). */
export interface ReplaceDefinitionInput {
  /** The prefix's registry of definitions, `<prefix>#models`. */
  readonly registry: string;
  readonly name: string;
  /** The definition JSON read, and the one to store. */
  readonly read: string;
  readonly next: string;
}

/** Whether `next` was stored (false: the stored definition had changed since it was read). */
export const replaceDefinitionScript: EntryScript<ReplaceDefinitionInput, boolean> = {
  function: () => scripts.replaceDefinition(),
  keys: ({ registry }) => [registry],
  args: ({ name, read, next }) => [name, read, next],
  reply: (reply) => Number(reply) === 1,
};
