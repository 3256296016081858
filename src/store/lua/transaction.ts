import { ChangeSet } from '../../mapper/change-set';
import { IndexDescriptor } from '../../model/index-descriptor';
import { pushChangeArgs } from '../change-args';
import { EntryScript } from '../entry-script';
import { ModelArgs } from '../model-args';
import type { ParentChecks, RemoveOutcome, SaveOutcome } from '../outcomes';
import { scripts } from '../scripts';
import { existedOf, removeOutcomeOf } from './remove';
import { saveOutcomeOf } from './save';

/** A save of a transaction: a create ('c', id '' to take a sequence number) or an update ('u') of one object. */
export interface TransactionSave {
  readonly mode: 'c' | 'u';
  /** The model section (its position in `sections`). */
  readonly section: number;
  readonly id: string;
  /** Update only: the @Version value the client read. */
  readonly readVersion: string | undefined;
  readonly changes: ChangeSet;
  /** Every index on create; the indexes the change touches on update. */
  readonly indexes: readonly IndexDescriptor[];
  readonly parents: ParentChecks;
}

/** A removal of a transaction: one object, with the model table of remove.lua (removal-program.ts). */
export interface TransactionRemove {
  readonly mode: 'r';
  readonly section: number;
  readonly id: string;
  readonly table: readonly string[];
}

/** transaction.lua: saves and removals under one hash tag, all or nothing (see its header). */
export interface TransactionInput {
  /** One per model key base the operations write, all under one hash tag. */
  readonly sections: readonly ModelArgs[];
  readonly operations: ReadonlyArray<TransactionSave | TransactionRemove>;
  /** A create retried under an idempotency key: its memo key (under the section's hash tag) and time to live. */
  readonly memo?: { readonly key: string; readonly ttlMs: number };
}

/** What transaction.lua did: each operation's outcome, the refusal of one (nothing written), or a replay. */
export type TransactionOutcome =
  | { readonly done: ReadonlyArray<SaveOutcome | RemoveOutcome> }
  | { readonly refused: number; readonly outcome: SaveOutcome | RemoveOutcome }
  | { readonly replay: string };

export const transactionScript: EntryScript<TransactionInput, TransactionOutcome> = {
  function: () => scripts.transaction(),
  keys: ({ sections, memo }) => [...(memo ? [memo.key] : []), ...sections.flatMap(({ keys }) => [keys.sequence, keys.all, keys.base])],
  args({ sections, operations, memo }) {
    const args: Array<string | Buffer> = [memo ? '1' : '0', memo ? String(memo.ttlMs) : '', String(sections.length)];
    for (const model of sections) args.push(model.ttl, model.memo, model.version, model.idForm);
    args.push(String(operations.length));
    for (const operation of operations) {
      args.push(operation.mode, String(operation.section + 1), operation.id);
      if (operation.mode === 'r') {
        args.push('', ...operation.table);
      } else {
        args.push(operation.readVersion ?? '');
        pushChangeArgs(args, operation.changes, operation.indexes, operation.parents);
      }
    }
    return args;
  },
  reply(reply, { operations }) {
    const [kind, ...rest] = reply as unknown[];
    if (kind === 'replay') return { replay: String(rest[0]) };
    const outcomeOf = (at: number, value: unknown) => (operations[at].mode === 'r' ? removeOutcomeOf(value) : saveOutcomeOf(value));
    if (kind === 'refused') {
      const at = Number(rest[0]) - 1;
      return { refused: at, outcome: outcomeOf(at, rest[1]) };
    }
    return { done: rest.map((value, at) => (operations[at].mode === 'r' ? existedOf(value) : saveOutcomeOf(value))) };
  },
};
