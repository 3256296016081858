import { decodeInto, ownedFields } from '../mapper/attribute-encoder';
import { EncodedFields } from '../mapper/encoded-fields';
import { ModelDescriptor } from '../model/model-descriptor';
import type { StoredObject } from '../query/query-runner';
import type { EntityClass, Persisted } from '../types/entity-types';
import type { StatefulEntity } from './entity-state';
import { stateOf } from './entity-state';
import { runHooks } from './run-hooks';
import { setUpInstance } from '../model/instance-setup';

/** Sets an entity from its stored fields: attributes, id and snapshot (no hooks). */
function fill(model: ModelDescriptor, entity: object, id: string, fields: EncodedFields): void {
  decodeInto(model, id, fields, entity);
  keepStored(model, entity, id, fields);
}

/** The instance's id and snapshot become the stored object's. */
function keepStored(model: ModelDescriptor, entity: object, id: string, fields: EncodedFields): void {
  const state = stateOf(entity);
  state.id = id;
  state.stored = ownedFields(model, fields);
}

/**
 * Sets an existing entity (reload) from its stored fields and runs its AfterLoad hooks. The attributes are
 * decoded apart first: a value that cannot be read (DecodeError) leaves the instance as it was.
 */
export async function applyStored(model: ModelDescriptor, entity: object, id: string, fields: EncodedFields): Promise<void> {
  const decoded: Record<string, unknown> = {};
  decodeInto(model, id, fields, decoded);
  Object.assign(entity, decoded);
  keepStored(model, entity, id, fields);
  await runHooks(model, entity, 'afterLoad');
}

/** A new instance of the model class holding a stored object (no hooks: the caller runs AfterLoad). */
export function buildStored<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  model: ModelDescriptor,
  id: string,
  fields: EncodedFields,
): Persisted<T> {
  const entity = new ctor();
  setUpInstance(model, entity);
  fill(model, entity, id, fields);
  return entity as Persisted<T>;
}

/**
 * Instances of the model class holding stored objects, in order (null stays null). Built synchronously; the
 * AfterLoad hooks, if the model has any, then run object by object.
 */
export async function materializeAll<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  model: ModelDescriptor,
  objects: ReadonlyArray<StoredObject | null>,
): Promise<Array<Persisted<T> | null>> {
  const entities = objects.map((object) => (object ? buildStored(ctor, model, object.id, object.fields) : null));
  if (model.hookMethods('afterLoad').length > 0) {
    for (const entity of entities) if (entity) await runHooks(model, entity, 'afterLoad');
  }
  return entities;
}
