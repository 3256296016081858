import { EntryScript } from '../entry-script';
import { scripts } from '../scripts';

/** register-schema.lua: store a model's definition the first time a connection uses the model (see its header). */
export interface RegisterSchemaInput {
  /** The prefix's registry of definitions, `<prefix>#models`. */
  readonly registry: string;
  readonly name: string;
  /** The current definition, as JSON. */
  readonly definition: string;
  readonly indexSignature: string;
  readonly layoutSignature: string;
  /** The current definition without `memosKept` (JSON), when it has it; '' otherwise. */
  readonly withoutMemosKept: string;
}

/** The definition (JSON) stored before the call, or undefined when there was none. */
export const registerSchemaScript: EntryScript<RegisterSchemaInput, string | undefined> = {
  function: () => scripts.registerSchema(),
  keys: ({ registry }) => [registry],
  args: ({ name, definition, indexSignature, layoutSignature, withoutMemosKept }) => [
    name,
    definition,
    indexSignature,
    layoutSignature,
    withoutMemosKept,
  ],
  reply: (reply) => (typeof reply === 'string' ? reply : undefined),
};
