import type { ArrayOperation } from '../../mapper/array-operations';
import { ChangeSet } from '../../mapper/change-set';
import { fieldsFromReply } from '../../mapper/attribute-encoder';
import { EncodedFields } from '../../mapper/encoded-fields';
import { IndexDescriptor } from '../../model/index-descriptor';
import { EntryScript } from '../entry-script';
import { memoFlagOf, ModelArgs, pushTrimSpecs } from '../model-args';
import type { ParentChecks, SaveOutcome } from '../outcomes';
import { scripts } from '../scripts';
import { pushChangeArgs } from '../change-args';
import { saveOutcomeOf } from './save';

/** upsert.lua: Model.update by id ('u'), Model.upsert ('o', or 'i' that leaves an existing object alone). */
export interface UpsertInput {
  readonly model: ModelArgs;
  readonly mode: 'u' | 'o' | 'i';
  /** 'u': the object's id; 'o', 'i': a created object's ('' takes the next sequence value). */
  readonly id: string;
  /** The time to live in ms the write gives the object; undefined: a created one gets the model's, an updated one keeps its own. */
  readonly ttl: number | undefined;
  /** 'u' only: the @Version the caller expects the object to hold (undefined: any). */
  readonly expectedVersion: string | undefined;
  /** 'o', 'i': the unique index to upsert on, one of `indexes`. */
  readonly on: IndexDescriptor | undefined;
  /** The fields to set and remove, without the version field (the script writes it). */
  readonly changes: ChangeSet;
  /** 'u': the indexes the change touches; 'o', 'i': every index. */
  readonly indexes: readonly IndexDescriptor[];
  readonly parents: ParentChecks;
  /** 'u' only: the array operators to apply to stored values (their fields are in `changes.set`, valued ''). */
  readonly operations?: readonly ArrayOperation[];
}

/** The write went through: the object as stored after it (no fields when a cap's trim evicted it at once). */
export interface Upserted {
  readonly id: string;
  readonly created: boolean;
  readonly fields: EncodedFields;
}

/** What upsert.lua came to: the object as stored, save.lua's refusal, or an array operator's field holding no array. */
export type UpsertOutcome = Upserted | Exclude<SaveOutcome, { id: string }> | { notArray: string };

export const upsertScript: EntryScript<UpsertInput, UpsertOutcome> = {
  function: () => scripts.upsert(),
  keys: ({ model: { keys } }) => [keys.sequence, keys.all, keys.base],
  args({ model, mode, id, ttl, expectedVersion, on, changes, indexes, parents, operations = [] }) {
    const given = ttl === undefined ? '' : String(ttl);
    const args: Array<string | Buffer> = [
      mode,
      id,
      mode === 'u' ? '' : given || model.ttl,
      given ? memoFlagOf(true, true) : model.memo,
      model.version,
      expectedVersion ?? '',
      model.capKey,
      model.capKeep,
      model.capOrder,
      model.idForm,
      on ? String(indexes.indexOf(on) + 1) : '',
      given,
    ];
    // the version field goes last, its value the script's
    const set = model.version ? new Map([...changes.set, [model.version, '']]) : changes.set;
    pushChangeArgs(args, { set, removed: changes.removed }, indexes, parents);
    pushTrimSpecs(args, model, model.capped || given !== '');
    args.push(String(operations.length));
    for (const { field, operator, elements } of operations) args.push(field, operator, String(elements.length), ...elements);
    return args;
  },
  reply(reply) {
    if (Array.isArray(reply) && reply[0] === 'notArray') return { notArray: String(reply[1]) };
    if (!Array.isArray(reply) || typeof reply[0] === 'string') return saveOutcomeOf(reply) as UpsertOutcome;
    return { created: Number(reply[0]) === 1, id: String(reply[1]), fields: fieldsFromReply(reply.slice(2)) };
  },
};
