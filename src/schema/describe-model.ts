import { ModelDescriptor } from '../model/model-descriptor';
import { descriptorOf } from '../model/model-registry';
import { RelationDescriptor } from '../model/relation-descriptor';
import { DEFINITION_FORMAT, StoredDefinition, StoredRelation, withHash } from './stored-definition';

function relationOf(relation: RelationDescriptor): StoredRelation {
  const target = descriptorOf(relation.target()).name;
  switch (relation.kind) {
    case 'belongsTo':
      return { kind: 'belongsTo', property: relation.property, target, foreignKey: relation.foreignKey };
    case 'hasMany':
      return { kind: 'hasMany', property: relation.property, target, inverse: relation.inverse, onDelete: relation.onDelete };
    case 'manyToMany':
      return {
        kind: 'manyToMany',
        property: relation.property,
        target,
        inverse: relation.inverse ?? null,
        // only when ordered, so that the stored form of every other relation stays what it was
        ...(relation.ordered ? { ordered: true as const } : {}),
      };
  }
}

const cache = new WeakMap<ModelDescriptor, StoredDefinition>();

/**
 * The stored form of a model's descriptor (the same for every tenant scope of it): what is written to Redis
 * and what the integrity tools run from. Built once per descriptor.
 */
export function describeModel(model: ModelDescriptor): StoredDefinition {
  let definition = cache.get(model);
  if (definition) return definition;
  definition = withHash({
    format: DEFINITION_FORMAT,
    name: model.name,
    group: model.group ?? null,
    layout: { hashTag: model.group === undefined ? 'model' : 'group', tenants: '<tenant>/ inside the hash tag' },
    idStrategy: model.idStrategy,
    ttlMs: model.ttlMs ?? null,
    cap: model.cap
      ? {
          by: model.cap.index.attribute.field,
          keep: model.cap.keep,
          order: model.cap.keepLowest ? 'asc' : 'desc',
          // only for a cap per value, so that the stored form of every other cap stays what it was
          ...(model.cap.per ? { per: model.cap.per.field } : {}),
        }
      : null,
    dynamicProperty: model.dynamicProperty ?? null,
    attributes: model.attributes.map((a) => ({ property: a.property, field: a.field, type: a.type, role: a.role ?? null })),
    indexes: model.indexes.map((index) => ({
      kind: index.kind,
      attribute: index.attribute.field,
      scope: index.scope?.field ?? null,
      caseInsensitive: index.caseInsensitive,
    })),
    relations: model.relations.map(relationOf),
    // only when sharded, so that the stored form of every other model stays what it was
    ...(model.shards > 1 ? { shards: model.shards } : {}),
    // the objects this definition writes keep memos (absent otherwise, as `shards`)
    ...(model.keepsMemo ? { memosKept: true as const } : {}),
  });
  cache.set(model, definition);
  return definition;
}
