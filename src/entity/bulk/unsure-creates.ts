import { activeConnection } from '../../redis/connection';
import { ConnectionError } from '../../errors/errors';
import { ModelDescriptor } from '../../model/model-descriptor';
import { ObjectStore } from '../../store/object-store';
import type { EntityState } from '../entity-state';

/**
 * New objects of saveMany whose write was sent and whose reply was lost (OutcomeUnknownError): each instance
 * keeps the id it was sent with, and is settled by a check read, at once when Redis answers again, else at the
 * next saveMany of it. A chunk is one script or one MULTI, so it was applied whole or not at all, and an object
 * whose hash exists under its id was stored by it: the instance then takes the snapshot it was sent with
 * (isPersisted() is true) and a retry updates it; otherwise a retry creates it under the same id. No retry stores
 * an object twice.
 */
type Snapshot = NonNullable<EntityState['stored']>;
const unsure = new WeakMap<EntityState, { readonly model: ModelDescriptor; readonly fields: Snapshot }>();

/** Marks the state unsure: its create under `id`, with `fields`, may or may not have been applied. */
export function markUnsure(model: ModelDescriptor, state: EntityState, id: string, fields: Snapshot): void {
  state.id = id;
  unsure.set(state, { model, fields });
}

/** Settles the unsure states among `states` with one check read each (pipelined); rejects when Redis does not answer. */
export async function settleUnsure(states: readonly EntityState[]): Promise<void> {
  const pending = states.filter((state) => unsure.has(state));
  if (pending.length === 0) return;
  const connection = activeConnection();
  const stored = await Promise.all(pending.map((state) => new ObjectStore(unsure.get(state)!.model, connection).exists(state.id!)));
  pending.forEach((state, i) => {
    if (stored[i] && state.stored === undefined) state.stored = unsure.get(state)!.fields;
    unsure.delete(state);
  });
}

/**
 * settleUnsure, tried again while the connection is still coming back (a few seconds at most); states it could
 * not settle stay unsure, for the next saveMany of them.
 */
export async function settleWhenAnswered(states: readonly EntityState[]): Promise<void> {
  for (let attempt = 1; attempt <= 20; attempt++) {
    try {
      return await settleUnsure(states);
    } catch (error) {
      if (!(error instanceof ConnectionError)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
    }
  }
}

/** What the chunks of one bulk create lost: the first error of a chunk whose reply was lost, and its states. */
export class LostReplies {
  error: ConnectionError | undefined;
  readonly states: EntityState[] = [];

  constructor(private readonly model: ModelDescriptor) {}

  /** Whether `error` is a lost reply (or an unsent chunk): then the chunk's entities are marked unsure. */
  take(error: unknown, entries: ReadonlyArray<readonly [state: EntityState, id: string, fields: Snapshot]>): boolean {
    if (!(error instanceof ConnectionError)) return false;
    this.error ??= error;
    for (const [state, id, fields] of entries) {
      markUnsure(this.model, state, id, fields);
      this.states.push(state);
    }
    return true;
  }

  /** Settles what was lost once Redis answers, then rejects with the first loss; resolves when nothing was lost. */
  async settle(): Promise<void> {
    if (!this.error) return;
    await settleWhenAnswered(this.states);
    throw this.error;
  }
}
