import { decodeInto, ownedFields } from '../mapper/attribute-encoder';
import { EncodedFields } from '../mapper/encoded-fields';
import { ModelDescriptor } from '../metadata/model-descriptor';
import type { EntityClass, Persisted } from '../types/entity-types';
import type { BaseEntity } from './base-entity';
import { stateOf } from './entity-state';
import { runHooks } from './run-hooks';

/** Sets an entity from its stored fields (attributes, id, snapshot) and runs its AfterLoad hooks. */
export async function applyStored(model: ModelDescriptor, entity: object, id: string, fields: EncodedFields): Promise<void> {
  decodeInto(model, id, fields, entity);
  const state = stateOf(entity);
  state.id = id;
  state.snapshot = ownedFields(model, fields);
  await runHooks(model, entity, 'afterLoad');
}

/** A new instance of the model class holding a stored object. */
export async function materialize<T extends BaseEntity>(
  ctor: EntityClass<T>,
  model: ModelDescriptor,
  id: string,
  fields: EncodedFields,
): Promise<Persisted<T>> {
  const entity = new ctor();
  await applyStored(model, entity, id, fields);
  return entity as Persisted<T>;
}
