import { ChangeSet } from '../../mapper/change-set';
import { IndexDescriptor } from '../../model/index-descriptor';
import { EntryScript } from '../entry-script';
import { memoFlagOf, ModelArgs, pushTrimSpecs } from '../model-args';
import type { ParentChecks, SaveOutcome } from '../outcomes';
import { scripts } from '../scripts';
import { pushChangeArgs } from '../change-args';

/** save.lua: create or update one object with its index and unique entries (see its header). */
export interface SaveInput {
  readonly model: ModelArgs;
  readonly mode: 'c' | 'u';
  /** '' on create takes the next sequence value. */
  readonly id: string;
  /** Update only: the @Version value the client read. */
  readonly readVersion: string | undefined;
  readonly changes: ChangeSet;
  /** Every index on create; the indexes the change touches on update. */
  readonly indexes: readonly IndexDescriptor[];
  readonly parents: ParentChecks;
  /** A time to live in ms given with the write (an expirable model's); undefined: the model's on create, kept on update. */
  readonly ttl?: number;
}

export const saveScript: EntryScript<SaveInput, SaveOutcome> = {
  function: () => scripts.save(),
  keys: ({ model: { keys } }) => [keys.sequence, keys.all, keys.base],
  args({ model, mode, id, readVersion, changes, indexes, parents, ttl }) {
    const args: Array<string | Buffer> = [
      mode,
      id,
      ttl !== undefined ? String(ttl) : mode === 'c' ? model.ttl : '',
      ttl !== undefined && mode === 'c' ? memoFlagOf(true, true) : model.memo,
      model.version,
      readVersion ?? '',
      model.capKey,
      model.capKeep,
      model.capOrder,
      model.idForm,
    ];
    pushChangeArgs(args, changes, indexes, parents);
    // a trim's evictions of objects without a memo; the memo of an update given a time to live
    pushTrimSpecs(args, model, model.capped || (mode === 'u' && ttl !== undefined));
    return args;
  },
  reply: (reply) => saveOutcomeOf(reply),
};

/**
 * save.lua's reply, and each entry of save-many.lua's and update-many.lua's: the id; false (nil) when the object
 * is gone or the given id is taken; {'unique', attribute}; {'stale'}; {'relation', field}.
 */
export function saveOutcomeOf(reply: unknown): SaveOutcome {
  if (reply === null || reply === undefined) return { missing: true };
  if (Array.isArray(reply)) {
    if (reply[0] === 'stale') return { stale: true };
    if (reply[0] === 'relation') return { missingParent: String(reply[1]) };
    return { uniqueTaken: String(reply[1]) };
  }
  return { id: String(reply) };
}
