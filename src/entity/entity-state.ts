import { ArgumentError, RedisRecordError, RemovedEntityError } from '../errors/errors';
import { describeValue } from '../util/describe-value';
import type { ModelDescriptor } from '../model/model-descriptor';
import { EncodedFields } from '../mapper/encoded-fields';
import { fieldsOfHsetArgs } from '../mapper/hset-args';
import { SharedSnapshots } from '../mapper/shared-snapshots';

/**
 * What an entity instance knows about its stored copy, kept apart from its attributes (StatefulEntity).
 * `stored` is the stored form of the attributes at the last save or load: the base of the next update's
 * change set; undefined means not persisted. A bulk create leaves its shared snapshots there
 * (shared-snapshots.ts), or for a model with dynamic attributes the HSET arguments it wrote (hset-args.ts),
 * made a map the first time something reads it: read it with snapshotOf.
 */
export interface EntityState {
  id?: string;
  stored?: EncodedFields | SharedSnapshots | string[];
  /** The last operation of this instance: saves and removes of one instance run one after another. */
  queue: Promise<unknown>;
  /** Operations of this instance started or waiting, not yet settled. */
  running: number;
}

const IDLE: Promise<unknown> = Promise.resolve();
/** Set by StatefulEntity's static block, the one place that can read its private field. */
let readState: (entity: StatefulEntity) => EntityState;

/**
 * The base of every entity class (BaseEntity extends it): it keeps the state in a private field, which
 * Object.keys, JSON, spreads and equality checks never see, so instances show their attributes only. (A
 * symbol property defined per instance cost about ten times as much to add; a WeakMap entry more still.)
 * @hidden
 */
export abstract class StatefulEntity {
  #state: EntityState | undefined;

  static {
    // every field from the start: one shape for every state, and 56 bytes for a saved one instead of 80 (fields
    // added later go to a separate property store)
    readState = (entity) => {
      try {
        return (entity.#state ??= { id: undefined, stored: undefined, queue: IDLE, running: 0 });
      } catch {
        // only an object no entity constructor made has no #state (Object.create(Model.prototype), a Proxy)
        throw notAnInstance(entity);
      }
    };
  }
}

function notAnInstance(entity: object): ArgumentError {
  return new ArgumentError(
    `${describeValue(entity)} was not made by its class's constructor (Object.create or a Proxy, say): make instances with new or Model.build`,
  );
}

/** The snapshot of a persisted instance, as a map (undefined when it is not persisted). */
export function snapshotOf(state: EntityState): EncodedFields | undefined {
  const stored = state.stored;
  if (stored === undefined || stored instanceof Map) return stored;
  return (state.stored = stored instanceof SharedSnapshots ? stored.fieldsOf(state.id!) : fieldsOfHsetArgs(stored));
}

/** The state of an entity, made on first use. */
export function stateOf(entity: object): EntityState {
  return readState(entity as StatefulEntity);
}

/**
 * Instances removed through remove(), removeMany() or removeBy(). They keep their id, as ActiveRecord's do; a
 * removed instance is never stored again (a save is refused), so the mark is for good. A set apart from the
 * state, since removals are rare and every state would otherwise carry the flag.
 */
const removedInstances = new WeakSet<object>();

/** Marks the instance removed: it keeps its id, isPersisted() is false and isRemoved() true. */
export function markRemoved(entity: object): void {
  const state = stateOf(entity);
  state.stored = undefined;
  removedInstances.add(entity);
}

/** Whether the instance was removed through remove(), removeMany() or removeBy(). */
export function isRemovedInstance(entity: object): boolean {
  return removedInstances.has(entity);
}

/**
 * The id of a stored instance, for its relation handles: undefined until it is saved (a given id included), and
 * once it is removed (a removed instance keeps its id, but names no object a relation could point at).
 */
export function idOf(entity: object): string | undefined {
  const state = readState(entity as StatefulEntity);
  // not stored: never saved (a given id not yet stored, too), or removed
  return state.stored === undefined ? undefined : state.id;
}

/**
 * Runs `operation` after the instance's previous save or remove has settled; at once when none is under way
 * (the common case: no wait for a settled queue).
 */
export function serialized<T>(entity: object, operation: () => Promise<T>): Promise<T> {
  let state: EntityState;
  try {
    state = stateOf(entity);
  } catch (error) {
    return Promise.reject(error);
  }
  const result = state.running === 0 ? operation() : state.queue.then(operation, operation);
  holdUntil(entity, result);
  return result;
}

/** Makes the instance's next operations wait for `work` (begun elsewhere) to settle. */
export function holdUntil(entity: object, work: Promise<unknown>): void {
  // holdAllUntil for one, without its arrays: every save() and remove() comes through here
  const state = stateOf(entity);
  state.running++;
  const settled = () => {
    state.running--;
  };
  state.queue = work.then(settled, settled);
}

/**
 * holdUntil for many instances (saveMany), given their states, with one promise for them all. (Index loops:
 * this runs once per call over up to millions of states, mostly before V8 optimizes it, and unoptimized
 * for-of allocates an iterator result per element.)
 */
export function holdAllUntil(states: readonly EntityState[], work: Promise<unknown>): void {
  for (let i = 0; i < states.length; i++) states[i].running++;
  const settled = () => {
    for (let i = 0; i < states.length; i++) states[i].running--;
  };
  const queue = work.then(settled, settled);
  for (let i = 0; i < states.length; i++) states[i].queue = queue;
}

/**
 * The states of one bulk call's instances (saveMany), claimed one by one before the call holds them with
 * holdAllUntil. Until then a claimed state's queue is the call's own mark, so an instance listed twice is found
 * without a map over the list (a map entry per instance cost about as much as the rest of its bookkeeping), and
 * what the instances are still doing is gathered on the way. No other code may run between the first claim
 * and holdAllUntil: nothing is awaited there and no user code runs (saveMany builds its instances before it
 * claims them). Were it cut short, a claimed state would keep a settled queue, as after any finished operation.
 */
export class StateClaims {
  /** Settled, and this call's alone (every Promise.resolve() is a new promise). */
  private readonly mark: Promise<unknown> = Promise.resolve();
  private busy: Array<Promise<unknown>> | undefined;

  /** Claims the state for the call; false when the call has it already (its instance is listed twice). */
  claim(state: EntityState): boolean {
    if (state.queue === this.mark) return false;
    if (state.running > 0) (this.busy ??= []).push(state.queue);
    state.queue = this.mark;
    return true;
  }

  /** Settles when every claimed instance's earlier operations have: at once when none had one under way. */
  idle(): Promise<unknown> {
    return this.busy ? Promise.all(this.busy) : IDLE;
  }
}

/** The id of a saved instance; a RedisRecordError for one never saved, or removed through this instance. */
export function requireId(model: ModelDescriptor, entity: object): string {
  const state = stateOf(entity);
  if (state.stored === undefined || state.id === undefined) {
    const removed = removedInstances.has(entity) ? ` (it was removed: ${model.name} ${JSON.stringify(state.id)})` : '';
    throw new RedisRecordError(`${model.name}: this instance is not saved${removed}`);
  }
  return state.id;
}

/**
 * Refuses to save a removed instance (RemovedEntityError), before anything runs: it keeps the id of an object
 * that is gone, and saving it again would either revive that id or store a copy under a new one.
 */
export function refuseRemoved(model: ModelDescriptor, entity: object): void {
  if (removedInstances.has(entity)) throw new RemovedEntityError(model.name, stateOf(entity).id!);
}
