import { asError } from '../../errors/as-error';
import { CommandError, errorCode } from '../../errors/command-errors';
import { typedScriptError } from '../../errors/wrong-type';
import { EncodedFields } from '../../mapper/encoded-fields';
import { EntryScript } from '../entry-script';
import { ModelArgs } from '../model-args';
import { pushSpecs } from '../index-specs';
import type { ParentChecks, SaveOutcome } from '../outcomes';
import { scripts } from '../scripts';
import { saveOutcomeOf } from './save';

/** A new object of a bulk create: its given id ('' to take a sequence number) and its encoded fields. */
export interface NewObject {
  readonly id: string;
  readonly fields: EncodedFields;
}

/** save-many.lua: create a chunk of new objects of one model, each as save.lua creates one (see its header). */
export interface SaveManyInput {
  readonly model: ModelArgs;
  /** Every foreign key of the model: the script checks those a new object sets. */
  readonly parents: ParentChecks;
  readonly objects: readonly NewObject[];
}

/**
 * One outcome per object, in order: save.lua's for a create, or the error that refused that object alone. A
 * refusal of the whole call comes typed from Script.run; an object's own refusal is a reply, typed here.
 */
export const saveManyScript: EntryScript<SaveManyInput, Array<SaveOutcome | Error>> = {
  function: () => scripts.saveMany(),
  keys: ({ model: { keys } }) => [keys.sequence, keys.all, keys.base],
  args({ model, parents, objects }) {
    const args: Array<string | Buffer> = [model.ttl, model.memo, model.version, model.capKey, model.capKeep, model.capOrder, model.idForm];
    pushSpecs(args, model.indexes);
    args.push(String(parents.length));
    for (const [field, objectPrefix] of parents) args.push(field, objectPrefix);
    args.push(String(objects.length));
    for (const object of objects) {
      args.push(object.id, String(object.fields.size));
      for (const [field, value] of object.fields) args.push(field, value);
    }
    return args;
  },
  reply: (reply) =>
    (reply as unknown[]).map((outcome) =>
      Array.isArray(outcome) && outcome[0] === 'error'
        ? asError(typedScriptError(new CommandError(errorCode(String(outcome[1])), String(outcome[1]))))
        : saveOutcomeOf(outcome),
    ),
};
