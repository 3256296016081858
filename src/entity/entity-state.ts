import { RedisRecordError } from '../errors/errors';
import type { ModelDescriptor } from '../metadata/model-descriptor';
import { EncodedFields } from '../mapper/encoded-fields';

/**
 * What an entity instance knows about its stored copy, kept apart from its attributes (StatefulEntity).
 * `snapshot` is the stored form of the attributes at the last save or load: the base of the next update's
 * change set. No snapshot means not persisted.
 */
export interface EntityState {
  id?: string;
  snapshot?: EncodedFields;
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
    readState = (entity) => (entity.#state ??= { queue: IDLE, running: 0 });
  }
}

/** The state of an entity, made on first use. */
export function stateOf(entity: object): EntityState {
  return readState(entity as StatefulEntity);
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

/** holdUntil for many instances (saveMany), with one promise for them all. */
export function holdAllUntil(entities: readonly object[], work: Promise<unknown>): void {
  const states = entities.map(stateOf);
  for (const state of states) state.running++;
  const settled = () => {
    for (const state of states) state.running--;
  };
  const queue = work.then(settled, settled);
  for (const state of states) state.queue = queue;
}

/** Settles when every one of these instances has no operation under way (at once when none has). */
export function whenIdle(entities: readonly object[]): Promise<unknown> {
  const busy: Array<Promise<unknown>> = [];
  for (const entity of entities) {
    const state = stateOf(entity);
    if (state.running > 0) busy.push(state.queue);
  }
  return Promise.all(busy);
}

/** The id of a saved instance; a RedisRecordError for one never saved, or removed through this instance. */
export function requireId(model: ModelDescriptor, entity: object): string {
  const state = stateOf(entity);
  if (state.snapshot === undefined || state.id === undefined) {
    throw new RedisRecordError(`${model.name}: this instance is not saved`);
  }
  return state.id;
}
