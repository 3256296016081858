import { ArgumentError } from '../errors/errors';
import { ArrayOperation, splitArrayOperations } from '../mapper/array-operations';
import { isAttributeObject } from '../util/attribute-object';
import { knownOptions } from '../errors/options-argument';
import type { GivenAttributes } from '../mapper/given-attributes';
import type { ModelDescriptor } from '../model/model-descriptor';
import { normalizeId } from '../keys/id-format';
import { indexedAttributes } from '../model/index-descriptor';
import { touchedIndexes } from '../mapper/touched-indexes';
import { activeConnection } from '../redis/connection';
import { refuseCrossSlotParent } from '../store/cross-slot';
import { ObjectStore } from '../store/object-store';
import { parentChecks } from '../store/parent-checks';
import type { EntityClass, Persisted } from '../types/entity-types';
import type { UpdateInput, UpdateOptions } from '../types/write-types';
import { claimedWrite, claimsUniques } from './claimed-write';
import type { StatefulEntity } from './entity-state';
import { GivenWrite, givenWrite, storedEntity } from './given-write';
import { onModel } from './model-call';
import { UPDATE_OPTIONS } from './option-names';

/**
 * Model.update: writes the given attributes of object `id` without loading it, in one script (upsert.lua) that
 * reads the old indexed values itself, checks uniques, foreign keys and the @Version given, bumps the version,
 * trims a cap, and answers with the object as stored. No hook runs. NotFoundError when there is no such object.
 */
export function updateById<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  id: string | number,
  attributes: UpdateInput<T>,
  options: UpdateOptions | undefined,
): Promise<Persisted<T>> {
  return onModel(ctor, async (model) => {
    const settings = knownOptions(`${model.name}.update`, options, UPDATE_OPTIONS);
    const normalized = normalizeId(model.name, id);
    const split = isAttributeObject(attributes) ? splitArrayOperations(model, attributes as Record<string, unknown>) : undefined;
    const operations = split?.operations ?? [];
    // without operators the input goes on as given (an entity passed by mistake is refused as such)
    const given = await givenWrite(model, ctor, operations.length > 0 ? split!.attributes : attributes, settings, 'update');
    // each operator's field is written by the script, from the stored array: its place among the fields set
    const write = withOperatedFields(given, operations);
    if (claimsUniques(model)) refusePartialComposite(model, write.given);
    const connection = activeConnection();
    const parents = parentChecks(model, connection);
    refuseCrossSlotParent(parents, write.changes.set);
    const store = new ObjectStore(model, connection);
    const run = () =>
      store.upsert({
        mode: 'u',
        id: normalized,
        ttl: write.ttl,
        expectedVersion: write.expectedVersion,
        on: undefined,
        changes: write.changes,
        indexes: touchedIndexes(model, write.changes),
        parents,
        operations,
      });
    // a sharded model's unique values are claimed across shards first (claimed-write.ts); the object's values
    // are not known here, so every unique index the update sets or clears has its held value read and released
    const outcome = claimsUniques(model)
      ? await claimedWrite(model, connection, normalized, new Map(write.changes.set), new Map(), run, {
          readVersion: write.expectedVersion,
          cleared: model.indexes.filter(
            (index) => index.kind === 'unique' && indexedAttributes(index).some((part) => write.given.cleared.includes(part)),
          ),
        })
      : await run();
    return storedEntity(ctor, model, write.entity, outcome, normalized);
  });
}

/** `write` with each operator's field among the fields set (valued '': the script writes it). */
function withOperatedFields(write: GivenWrite, operations: readonly ArrayOperation[]): GivenWrite {
  if (operations.length === 0) return write;
  const set = new Map(write.changes.set);
  for (const { field } of operations) set.set(field, '');
  return { ...write, changes: { set, removed: write.changes.removed } };
}

/**
 * A sharded model claims a composite unique's value across shards before the write, from the values given: an
 * update giving some of its parts but not all is an ArgumentError (the value it makes is not known here).
 */
function refusePartialComposite(model: ModelDescriptor, given: GivenAttributes): void {
  for (const index of model.indexes) {
    if (!index.parts) continue;
    const named = index.parts.filter((part) => given.set.includes(part) || given.cleared.includes(part));
    if (named.length > 0 && named.length < index.parts.length) {
      const parts = index.parts.map((part) => part.property).join(', ');
      throw new ArgumentError(`${model.name}.update: give every part of the composite unique (${parts}) or none, on a sharded model`);
    }
  }
}
