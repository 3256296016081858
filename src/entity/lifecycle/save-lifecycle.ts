import { HookKind } from '../../model/hook-kind';
import { ModelDescriptor } from '../../model/model-descriptor';
import type { ReplicaPolicy } from '../../model/replica-policy';
import type { ReplicationError } from '../../errors/errors';
import type { Persisted } from '../../types/entity-types';
import { EntityState, refuseRemoved } from '../entity-state';
import { runHooks } from '../run-hooks';
import { hasValidationRules, validateEntity } from '../validate-entity';
import { replicaShortfalls } from './replica-waits';

/**
 * The save lifecycle, written once for save() (a batch of one) and saveMany():
 *
 * 1. for each instance, in order: refused when removed, then BeforeValidate, validation, BeforeSave and
 *    BeforeCreate or BeforeUpdate; an instance failing a step is not written;
 * 2. the writes of the instances that passed, by the caller's writer;
 * 3. the replica wait (`waitReplicas`), for every written object at once;
 * 4. for each written instance, in order: AfterCreate or AfterUpdate, then AfterSave; then its replica
 *    shortfall, if any, is its failure (the write stands).
 *
 * A failure is reported through `fail` and the others go on; save() throws the one failure of its batch.
 */

/**
 * The instances of a call, position by position: each one's index in the given list, the instance and its state.
 * (Three arrays, not an object per item: a call may hold millions.)
 */
export interface SaveBatch<T> {
  readonly indexes: number[];
  readonly entities: T[];
  readonly states: EntityState[];
}

/** Reports the failure of the instance at `index` of the given list; `written` when its object is stored. */
export type SaveFailure<T> = (index: number, entity: T, error: unknown, written?: boolean) => void;

/**
 * Writes the instances at the positions `ready` (1 in `creating` for a create): marks each one stored in
 * `written`, and reports the others through `failAt`.
 */
export type BatchWriter = (
  ready: readonly number[],
  creating: Uint8Array,
  written: Uint8Array,
  failAt: (at: number, error: unknown) => void,
) => Promise<void>;

const BEFORE: readonly HookKind[] = ['beforeValidate', 'beforeSave', 'beforeCreate', 'beforeUpdate'];
const AFTER: readonly HookKind[] = ['afterCreate', 'afterUpdate', 'afterSave'];

/**
 * Whether any instance needs a step before its write: a before-hook, or class-validator rules to run. Most saves
 * and bulk loads have neither, and then no instance costs a promise before its write.
 */
export function hasStepsBefore(model: ModelDescriptor, validate: boolean): boolean {
  if (BEFORE.some((kind) => model.hookMethods(kind).length > 0)) return true;
  return validate && hasValidationRules(model);
}

/** Whether any instance has a step after its write: an after-hook. */
export function hasStepsAfter(model: ModelDescriptor): boolean {
  return AFTER.some((kind) => model.hookMethods(kind).length > 0);
}

/** Runs the lifecycle over the batch; resolves to the instances saved with every step, in order. */
export async function runSaveLifecycle<T extends object>(
  model: ModelDescriptor,
  { indexes, entities, states }: SaveBatch<T>,
  settings: { readonly validate: boolean; readonly replicas: ReplicaPolicy | undefined },
  write: BatchWriter,
  fail: SaveFailure<T>,
): Promise<Array<Persisted<T>>> {
  // Lists of one entry per item are sized once, never grown (a list grown item by item is copied each time it
  // grows), and flags are bytes: a bulk load's lists are memory of their own (docs/bulk-operations.md).
  // 1 for an instance to create: known once the instances' earlier operations have settled
  const creating = new Uint8Array(entities.length);
  for (let at = 0; at < entities.length; at++) creating[at] = states[at].stored === undefined ? 1 : 0;
  const ready: number[] = new Array(entities.length);
  let readyCount = 0;
  const stepsBefore = hasStepsBefore(model, settings.validate);
  for (let at = 0; at < entities.length; at++) {
    try {
      refuseRemoved(model, entities[at]);
      if (stepsBefore) await beforeWrite(model, entities[at], creating[at] === 1, settings.validate);
      ready[readyCount++] = at;
    } catch (error) {
      fail(indexes[at], entities[at], error);
    }
  }
  ready.length = readyCount;

  const written = new Uint8Array(entities.length);
  await write(ready, creating, written, (at, error) => fail(indexes[at], entities[at], error));

  // With waitReplicas: the writes stand; an item whose node fell short is reported written but failed.
  let shortfalls: Map<string, ReplicationError> | undefined;
  if (settings.replicas) {
    const operations = new Map<string, string>();
    for (const at of ready) if (written[at]) operations.set(states[at].id!, creating[at] ? 'create' : 'save');
    shortfalls = await replicaShortfalls(model, operations, settings.replicas);
  }

  const saved: Array<Persisted<T>> = new Array(ready.length);
  let savedCount = 0;
  const stepsAfter = hasStepsAfter(model);
  for (let i = 0; i < ready.length; i++) {
    const at = ready[i];
    if (!written[at]) continue;
    const entity = entities[at];
    if (stepsAfter) {
      try {
        await runHooks(model, entity, creating[at] ? 'afterCreate' : 'afterUpdate');
        await runHooks(model, entity, 'afterSave');
      } catch (error) {
        fail(indexes[at], entity, error, true);
        continue;
      }
    }
    const shortfall = shortfalls?.get(states[at].id!);
    if (shortfall) fail(indexes[at], entity, shortfall, true);
    else saved[savedCount++] = entity as Persisted<T>;
  }
  saved.length = savedCount;
  return saved;
}

/** The steps before an instance's write, in their order (also each save of a transaction's). */
export async function beforeWrite(model: ModelDescriptor, entity: object, creating: boolean, validate: boolean): Promise<void> {
  await runHooks(model, entity, 'beforeValidate');
  if (validate) await validateEntity(model, entity);
  await runHooks(model, entity, 'beforeSave');
  await runHooks(model, entity, creating ? 'beforeCreate' : 'beforeUpdate');
}
