import { v4 as uuidv4 } from 'uuid';
import { ArgumentError } from '../errors/errors';
import { knownOptions } from '../errors/options-argument';
import { IndexDescriptor, indexedAttributes } from '../model/index-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import { activeConnection } from '../redis/connection';
import { refuseCrossSlotParent } from '../store/cross-slot';
import { ObjectStore } from '../store/object-store';
import { parentChecks } from '../store/parent-checks';
import type { AttributeInput, EntityClass } from '../types/entity-types';
import type { UpsertOptions, UpsertResult } from '../types/write-types';
import { describeValue } from '../util/describe-value';
import { stateOf, type StatefulEntity } from './entity-state';
import { givenWrite, storedEntity } from './given-write';
import { onModel } from './model-call';
import { UPSERT_OPTIONS } from './option-names';
import { requiredGivenId } from './write-entity';

/**
 * Model.upsert: in one script (upsert.lua), updates the object holding the value of the unique attribute `on`
 * with the given attributes, or creates one with them (`update: false` leaves an existing object as it is).
 * The look-up and the write are one atomic step, so upserts racing on one value make one object. No hook runs.
 */
export function upsertEntity<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  attributes: AttributeInput<T>,
  options: UpsertOptions<T>,
): Promise<UpsertResult<T>> {
  return onModel(ctor, async (model) => {
    const settings = knownOptions(`${model.name}.upsert`, options, UPSERT_OPTIONS);
    const on = upsertIndex(model, settings.on);
    if (settings.update !== undefined && typeof settings.update !== 'boolean') {
      throw new ArgumentError(`${model.name}.upsert: update must be true or false, got ${describeValue(settings.update)}`);
    }
    const write = await givenWrite(model, ctor, attributes, settings, 'upsert');
    const missing = indexedAttributes(on).filter((attribute) => !write.changes.set.has(attribute.field));
    if (missing.length > 0) {
      throw new ArgumentError(
        `${model.name}.upsert: the attributes hold no value of ${missing.map((attribute) => attribute.property).join(', ')}, which it is on`,
      );
    }
    const connection = activeConnection();
    const parents = parentChecks(model, connection);
    refuseCrossSlotParent(parents, write.changes.set);
    const id =
      model.idStrategy === 'uuid'
        ? uuidv4()
        : model.idStrategy === 'given'
          ? requiredGivenId(model, write.entity, stateOf(write.entity))
          : '';
    const outcome = await new ObjectStore(model, connection).upsert({
      mode: settings.update === false ? 'i' : 'o',
      id,
      ttl: write.ttl,
      expectedVersion: undefined,
      on,
      changes: write.changes,
      indexes: model.indexes,
      parents,
    });
    const entity = storedEntity(ctor, model, write.entity, outcome, undefined);
    return { entity, created: 'created' in outcome && outcome.created };
  });
}

/**
 * The unique index `on` names: one @Unique attribute, or the attributes of a composite unique (in any order), of a
 * model that is not sharded; anything else an ArgumentError naming what the model has.
 */
function upsertIndex(model: ModelDescriptor, on: unknown): IndexDescriptor {
  if (model.shards > 1) {
    throw new ArgumentError(`${model.name}.upsert: a sharded model has no upsert (its unique values are claimed across shards)`);
  }
  const uniques = model.indexes.filter((index) => index.kind === 'unique' && index.scope === undefined);
  const nameOf = (index: IndexDescriptor) =>
    index.parts ? `[${index.parts.map((part) => JSON.stringify(part.property)).join(', ')}]` : JSON.stringify(index.attribute.property);
  const index = Array.isArray(on)
    ? uniques.find(
        (unique) => unique.parts?.length === new Set(on).size && on.every((name) => unique.parts!.some((part) => part.property === name)),
      )
    : uniques.find((unique) => !unique.parts && unique.attribute.property === on);
  if (!index) {
    const names = uniques.map(nameOf).join(', ') || 'none';
    throw new ArgumentError(
      `${model.name}.upsert: on must name a @Unique attribute, or the attributes of a composite unique (${names}), got ${describeValue(on)}`,
    );
  }
  return index;
}
