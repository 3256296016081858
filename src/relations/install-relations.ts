import type { ModelDescriptor } from '../model/model-descriptor';
import { descriptorOf } from '../model/model-registry';
import { BelongsToHandle } from './belongs-to-handle';
import { HasManyHandle } from './has-many-handle';
import { ManyToManyHandle } from './many-to-many-handle';
import { OrderedManyToManyHandle } from './ordered-many-to-many-handle';
import { RelationOwner } from './relation-handle';
import { checkRelations } from '../model/check-relations';
import { registerInstanceSetup } from '../model/instance-setup';
import { idOf } from '../entity/entity-state';

/**
 * Puts the relation handles on an instance (after its class's field initializers have run, which would
 * otherwise overwrite them). Instances made by build(), create(), find() and queries have them; the handles
 * read the instance's id when used. Registered as the model layer's instance setup when this module loads.
 */
export function installRelations(model: ModelDescriptor, entity: object): void {
  checkRelations(model);
  const owner: RelationOwner = { entity, model: () => descriptorOf(entity.constructor), id: () => idOf(entity) };
  for (const relation of model.relations) {
    let handle: object;
    if (relation.kind === 'belongsTo') handle = new BelongsToHandle(owner, relation.foreignKey, relation.target, relation.property);
    else if (relation.kind === 'manyToMany') {
      handle = relation.ordered ? new OrderedManyToManyHandle(owner, relation) : new ManyToManyHandle(owner, relation);
    } else {
      const inverse = descriptorOf(relation.target()).relations.find((r) => r.kind === 'belongsTo' && r.property === relation.inverse);
      const foreignKey = inverse?.kind === 'belongsTo' ? inverse.foreignKey : `${relation.inverse}Id`;
      handle = new HasManyHandle(owner, relation.target, foreignKey, relation.property);
    }
    Object.defineProperty(entity, relation.property, { value: handle, enumerable: false, configurable: true, writable: false });
  }
}

registerInstanceSetup(installRelations);
