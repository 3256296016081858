import { isEmpty } from '../mapper/change-set';
import { ModelDescriptor } from '../model/model-descriptor';
import type { EntityClass } from '../types/entity-types';
import { iterate } from './entity-queries';
import { StatefulEntity, stateOf } from './entity-state';
import { planEntityUpdate, writeEntity } from './write-entity';

/**
 * What reindex() does first on a model with @Computed values: every object of the scope is read (in batches) and
 * its getters run; an object whose stored values differ from theirs (the getter's code changed, or the object was
 * written by other means) is updated, its index entries with it, in one script call each, as save() writes (no
 * hook runs). Returns how many objects were updated.
 */
export async function recomputeValues(model: ModelDescriptor): Promise<number> {
  if (model.computed.length === 0) return 0;
  let updated = 0;
  for await (const entity of iterate(model.ctor as EntityClass<StatefulEntity>, undefined, undefined)) {
    const state = stateOf(entity);
    if (isEmpty(planEntityUpdate(model, entity, state).changes)) continue;
    await writeEntity(model, entity, state);
    updated++;
  }
  return updated;
}
