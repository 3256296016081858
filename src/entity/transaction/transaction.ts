import { ArgumentError } from '../../errors/errors';
import { describeValue } from '../../util/describe-value';
import { holdAllUntil, StateClaims, StatefulEntity, stateOf } from '../entity-state';
import { runTransaction } from './run-transaction';
import type { Step } from './transaction-steps';
import type { BaseEntity } from '../base-entity';

/** What a transaction's callback lists its writes with; they are made when the callback has returned. */
export interface Transaction {
  /** Creates or updates the instance in the transaction, as its save() would. */
  save(entity: BaseEntity): void;
  /** Removes the instance's object in the transaction, as its remove() would (cascades included). */
  remove(entity: BaseEntity): void;
}

/**
 * Writes the saves and removes `work` lists all or nothing, in one script call, and resolves to what `work`
 * returned. Every before-hook, validation, unique value, parent, version and onDelete rule is checked before
 * the first write: a refusal is a TransactionRefusedError naming the object, and nothing is written. The
 * after-hooks run once everything is stored. On a Redis Cluster the objects must share one hash tag (one
 * model, or the models of one group): anything else is a CrossSlotError, before anything is sent.
 * See docs/transactions-and-retries.md.
 */
export async function transaction<R>(work: (tx: Transaction) => R | Promise<R>): Promise<R> {
  if (typeof work !== 'function') throw new ArgumentError(`transaction: expected a function (tx) => { ... }, got ${describeValue(work)}`);
  const steps: Step[] = [];
  let open = true;
  const add = (kind: Step['kind']) => (entity: BaseEntity) => {
    if (!open) throw new ArgumentError(`transaction: tx.${kind}() was called after the transaction's callback returned`);
    if (!(entity instanceof StatefulEntity))
      throw new ArgumentError(`transaction: tx.${kind}() expects an entity, got ${describeValue(entity)}`);
    steps.push({ kind, entity });
  };
  let result: R;
  try {
    result = await work({ save: add('save'), remove: add('remove') });
  } finally {
    open = false;
  }
  if (steps.length === 0) return result;
  // like save(), wait for what the instances are still doing, and make their next operations wait for this one
  const claims = new StateClaims();
  const states = steps.map((step) => stateOf(step.entity));
  states.forEach((state, index) => {
    if (!claims.claim(state)) throw new ArgumentError(`transaction: the instance at step ${index} is listed twice; each is written once`);
  });
  const run = claims.idle().then(() => runTransaction({ steps, validate: true }));
  holdAllUntil(states, run);
  await run;
  return result;
}
