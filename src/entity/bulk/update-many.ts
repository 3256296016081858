import { asError } from '../../errors/as-error';
import { chunkRefusal } from './chunk-refusal';
import { activeConnection } from '../../redis/connection';
import { bulkTarget, groupByTarget } from '../../store/bulk-routing';
import { BulkStore, ObjectChange } from '../../store/bulk-store';
import { isEmpty } from '../../mapper/change-set';
import { EncodedFields } from '../../mapper/encoded-fields';
import { ModelDescriptor } from '../../model/model-descriptor';
import { refuseCrossSlotParent } from '../../store/cross-slot';
import { parentChecks } from '../../store/parent-checks';
import { UPDATE_CHUNKS_IN_FLIGHT } from './bulk-options';
import { inRanges } from './bulk-windows';
import { EntityState } from '../entity-state';
import { keepUpdate, planEntityUpdate, refusal } from '../write-entity';

/** A change on its way: the entity's position, what is sent for it, and its snapshot once stored. */
interface PendingChange extends ObjectChange {
  readonly at: number;
  readonly stored: EncodedFields;
}

/**
 * The write step of saveMany for stored instances: what writeEntity does for one update, for many, with one
 * update-many.lua call per chunk (per key base: a sharded model's objects are grouped by shard). Each
 * instance's snapshot (and @Version) follows what was stored, as after save(); an instance with nothing
 * changed sends nothing. Resolves to the error of each instance that was not stored (undefined for those
 * that were): a refusal (stale, gone, unique value, missing parent), or the error of its chunk's call, given to
 * each instance of the chunk (a connection lost during the call leaves unknown whether Redis ran it, as for
 * one save()). Instances are encoded chunk by chunk, so that encoding the next chunk overlaps Redis applying
 * the last.
 */
export async function updateMany(
  model: ModelDescriptor,
  entities: readonly object[],
  states: readonly EntityState[],
  chunkSize: number,
): Promise<Array<Error | undefined>> {
  const errors = new Array<Error | undefined>(entities.length);
  const connection = activeConnection();
  const store = new BulkStore(model, connection);
  const parents = parentChecks(model, connection);
  await inRanges(0, entities.length, chunkSize, UPDATE_CHUNKS_IN_FLIGHT, async (from, to) => {
    const pending: PendingChange[] = [];
    for (let at = from; at < to; at++) {
      try {
        const { changes, readVersion, stored } = planEntityUpdate(model, entities[at], states[at]);
        refuseCrossSlotParent(parents, changes.set);
        if (isEmpty(changes)) keepUpdate(model, entities[at], states[at], stored);
        else pending.push({ at, id: states[at].id!, changes, readVersion, stored });
      } catch (error) {
        errors[at] = asError(error);
      }
    }
    const groups = groupByTarget(pending, (item) => bulkTarget(model, connection.prefix, item.id));
    await Promise.all(
      groups.map(async ({ target, items }) => {
        try {
          const outcomes = await store.update(target, items, parents);
          for (let i = 0; i < items.length; i++) {
            const { at, id, stored } = items[i];
            const outcome = outcomes[i];
            if ('id' in outcome) keepUpdate(model, entities[at], states[at], stored);
            else errors[at] = refusal(model, entities[at], outcome, id);
          }
        } catch (error) {
          // the chunk refused before it wrote anything: its items fail, the others go on; any other error (a
          // connection lost part way) rejects the call, as saveMany documents
          const refusal = chunkRefusal(error);
          if (!refusal) throw error;
          for (const { at } of items) errors[at] = refusal;
        }
      }),
    );
  });
  return errors;
}
