import { ModelKeys } from '../../keys/model-keys';
import { ChangeSet } from '../../mapper/change-set';
import { EntryScript } from '../entry-script';
import { scripts } from '../scripts';

/** update-fields.lua: write changed fields no index, version, foreign key or cap depends on (see its header). */
export interface UpdateFieldsInput {
  readonly keys: ModelKeys;
  readonly id: string;
  readonly changes: ChangeSet;
}

/** 'written'; 'missing' when the object does not exist; 'expired' when its hash expired but it awaits a sweep. */
export type UpdateFieldsOutcome = 'written' | 'missing' | 'expired';

export const updateFieldsScript: EntryScript<UpdateFieldsInput, UpdateFieldsOutcome> = {
  function: () => scripts.updateFields(),
  keys: ({ keys, id }) => [keys.object(id), keys.all],
  args({ id, changes }) {
    const args = [id, String(changes.set.size)];
    for (const [field, value] of changes.set) args.push(field, value);
    args.push(String(changes.removed.length), ...changes.removed);
    return args;
  },
  reply(reply) {
    const n = Number(reply);
    return n === 1 ? 'written' : n === 0 ? 'missing' : 'expired';
  },
};
