import { EncodedFields } from '../mapper/encoded-fields';

/**
 * What an entity instance knows about its stored copy, kept outside the instance so that instances hold
 * only their attributes. `snapshot` is the stored form of the attributes at the last save or load: the base
 * of the next update's change set. No snapshot means not persisted.
 */
export interface EntityState {
  id?: string;
  snapshot?: EncodedFields;
  /** The last operation of this instance: saves and removes of one instance run one after another. */
  queue: Promise<unknown>;
  /** Operations of this instance started or waiting, not yet settled. */
  running: number;
}

/**
 * The state sits on the instance under a symbol, non-enumerable: Object.keys, JSON, spreads and equality
 * checks see the attributes only. (A WeakMap entry cost about 2.5 us per instance to add and collect, the
 * largest part of materializing a loaded page of objects.)
 */
const STATE = Symbol('redis-record entity state');
const IDLE: Promise<unknown> = Promise.resolve();

export function stateOf(entity: object): EntityState {
  let state = (entity as { [STATE]?: EntityState })[STATE];
  if (!state) {
    state = { queue: IDLE, running: 0 };
    Object.defineProperty(entity, STATE, { value: state, enumerable: false, writable: false, configurable: false });
  }
  return state;
}

/**
 * Runs `operation` after the instance's previous save or remove has settled; at once when none is under way
 * (the common case: no wait for a settled queue).
 */
export function serialized<T>(entity: object, operation: () => Promise<T>): Promise<T> {
  const state = stateOf(entity);
  const result = state.running === 0 ? operation() : state.queue.then(operation, operation);
  holdUntil(entity, result);
  return result;
}

/** Makes the instance's next operations wait for `work` (begun elsewhere, e.g. by saveMany) to settle. */
export function holdUntil(entity: object, work: Promise<unknown>): void {
  const state = stateOf(entity);
  state.running++;
  const settled = () => {
    state.running--;
  };
  state.queue = work.then(settled, settled);
}
