import { activeConnection } from '../../redis/connection';
import { ModelDescriptor } from '../../model/model-descriptor';
import { afterSchema } from '../../schema/first-use';
import type { EntityState } from '../entity-state';
import type { BatchWriter } from '../lifecycle/save-lifecycle';
import { writeEntity } from '../write-entity';
import { claimsUniques } from '../claimed-write';
import { UPDATES_IN_FLIGHT } from './bulk-options';
import { eachInFlight } from './bulk-windows';
import { entangledItems } from './claim-order';
import { createMany } from './create-many';
import { updateMany } from './update-many';

/**
 * The write step of saveMany (step 2 of the save lifecycle): changes to loaded objects first, in chunks
 * (update-many.lua), then the new objects, in chunks (create-many.ts). A sharded model's unique values are
 * claimed object by object (claimed-write.ts): its changes, then its creates, go one save.lua call each
 * (writeEntity, as save() does), pipelined, at most UPDATES_IN_FLIGHT under way, but those sharing a unique
 * value one after the other, in order (claim-order.ts).
 */
export function bulkWriter<T extends object>(
  model: ModelDescriptor,
  entities: readonly T[],
  states: readonly EntityState[],
  chunkSize: number,
): BatchWriter {
  return (ready, creating, written, failAt) =>
    afterSchema(model, async () => {
      let createCount = 0;
      for (let i = 0; i < ready.length; i++) createCount += creating[ready[i]];
      const updates: number[] = new Array(ready.length - createCount);
      const creates: number[] = new Array(createCount);
      for (let i = 0, u = 0, c = 0; i < ready.length; i++) {
        const at = ready[i];
        if (creating[at] === 1) creates[c++] = at;
        else updates[u++] = at;
      }
      const record = (at: number, error: unknown): void => {
        if (error === undefined) written[at] = 1;
        else failAt(at, error);
      };
      if (claimsUniques(model)) {
        const writeOne = async (at: number): Promise<void> => {
          try {
            await writeEntity(model, entities[at], states[at]);
            written[at] = 1;
          } catch (error) {
            failAt(at, error);
          }
        };
        await writeEach(model, entities, states, updates, writeOne);
        await writeEach(model, entities, states, creates, writeOne);
        return;
      }
      const updateErrors = await updateMany(model, atPositions(entities, updates), atPositions(states, updates), chunkSize);
      for (let i = 0; i < updates.length; i++) record(updates[i], updateErrors[i]);
      const createErrors = await createMany(model, atPositions(entities, creates), chunkSize);
      for (let i = 0; i < creates.length; i++) record(creates[i], createErrors[i]);
    });
}

/** One write per instance, those sharing a unique value in order, the others UPDATES_IN_FLIGHT at a time. */
async function writeEach<T extends object>(
  model: ModelDescriptor,
  entities: readonly T[],
  states: readonly EntityState[],
  positions: readonly number[],
  writeOne: (at: number) => Promise<void>,
): Promise<void> {
  const entangled = await entangledItems(model, activeConnection(), entities, states, positions);
  const free = positions.filter((_, i) => !entangled[i]);
  const tied = positions.filter((_, i) => entangled[i]);
  await Promise.all([
    eachInFlight(free.length, UPDATES_IN_FLIGHT, (i) => writeOne(free[i])),
    (async () => {
      for (const at of tied) await writeOne(at);
    })(),
  ]);
}

/**
 * The items at `positions` (increasing, each at most once): the list itself when they are all of it (a bulk
 * load of new objects only, or of changes only), with no copy of a list that may hold millions.
 */
function atPositions<I>(items: readonly I[], positions: readonly number[]): readonly I[] {
  return positions.length === items.length ? items : positions.map((at) => items[at]);
}
