import { ModelKeys } from '../../keys/model-keys';
import { EncodedFields } from '../../mapper/encoded-fields';
import { EntryScript } from '../entry-script';
import type { EntryTemplate } from '../new-object-entries';
import { scripts } from '../scripts';

/** create-plain.lua: create one object that needs no check before the write (see its header). */
export interface CreatePlainInput {
  readonly keys: ModelKeys;
  readonly fields: EncodedFields;
  /** Its index entries, computed from `fields` (entryTemplates). */
  readonly entries: readonly EntryTemplate[];
}

/** Resolves to the id drawn. */
export const createPlainScript: EntryScript<CreatePlainInput, string> = {
  function: () => scripts.createPlain(),
  keys: ({ keys }) => [keys.sequence, keys.all, keys.base],
  args({ keys, fields, entries }) {
    const args: Array<string | Buffer> = [String(fields.size)];
    for (const [field, value] of fields) args.push(field, value);
    args.push(String(entries.length));
    for (const { kind, key, arg } of entries) {
      args.push(kind, key.slice(keys.base.length));
      if (arg !== undefined) args.push(arg);
    }
    return args;
  },
  reply: (reply) => String(reply),
};
