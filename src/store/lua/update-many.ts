import { ChangeSet } from '../../mapper/change-set';
import { IndexDescriptor } from '../../model/index-descriptor';
import { pushChangeArgs } from '../change-args';
import { EntryScript } from '../entry-script';
import { ModelArgs, pushTrimSpecs } from '../model-args';
import type { ParentChecks, SaveOutcome } from '../outcomes';
import { scripts } from '../scripts';
import { saveOutcomeOf } from './save';

/** A change to a stored object in a bulk update: its id, what changes, and with @Version the version read. */
export interface ObjectChange {
  readonly id: string;
  readonly changes: ChangeSet;
  readonly readVersion: string | undefined;
}

/** update-many.lua: apply the changes of a chunk of objects of one key base, each as save.lua would (see its header). */
export interface UpdateManyInput {
  readonly model: ModelArgs;
  readonly parents: ParentChecks;
  readonly objects: readonly ObjectChange[];
  /** The indexes an object's change touches (touchedIndexes): only those are sent for it. */
  readonly touched: (changes: ChangeSet) => readonly IndexDescriptor[];
}

/** One outcome per object, in order, as save.lua's for an update. */
export const updateManyScript: EntryScript<UpdateManyInput, SaveOutcome[]> = {
  function: () => scripts.updateMany(),
  keys: ({ model: { keys } }) => [keys.sequence, keys.all, keys.base],
  args({ model, parents, objects, touched }) {
    const args: Array<string | Buffer> = [model.version, model.capKey, model.capKeep, model.capOrder, model.idForm, model.memo];
    // a trim's evictions of objects without a memo
    pushTrimSpecs(args, model);
    args.push(String(objects.length));
    for (const { id, changes, readVersion } of objects) {
      args.push(id, readVersion ?? '');
      pushChangeArgs(args, changes, touched(changes), parents);
    }
    return args;
  },
  reply: (reply) => (reply as unknown[]).map(saveOutcomeOf),
};
