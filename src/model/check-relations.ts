import { SchemaError } from '../errors/errors';
import type { ModelDescriptor } from './model-descriptor';
import { descriptorOf } from './model-registry';

const checked = new WeakSet<Function>();

/**
 * Relation targets are functions (`() => User`) because classes may be defined in any order, so they are
 * checked on first use rather than when the class is defined: every target is a model, a @HasMany's inverse
 * is a @BelongsTo of the target pointing back, a @ManyToMany's inverse is a @ManyToMany pointing back, and
 * no target is sharded (objects of different shards are in different Cluster slots: no atomic cascade).
 */
export function checkRelations(model: ModelDescriptor): void {
  const root = model.tenant === undefined ? model.ctor : Object.getPrototypeOf(model.ctor);
  if (checked.has(root)) return;
  for (const relation of model.relations) {
    const where = `${model.name}.${relation.property}`;
    const target = relation.target();
    if (typeof target !== 'function') throw new SchemaError(`${where}: the relation's target is not a class`);
    const targetModel = descriptorOf(target);
    if (targetModel.shards > 1) {
      throw new SchemaError(`${where}: ${targetModel.name} is sharded, and a sharded model cannot take part in relations`);
    }
    if (relation.kind === 'hasMany') {
      const inverse = targetModel.relations.find((r) => r.property === relation.inverse);
      if (!inverse || inverse.kind !== 'belongsTo' || inverse.target() !== root) {
        throw new SchemaError(
          `${where}: inverse ${JSON.stringify(relation.inverse)} must be a @BelongsTo(() => ${model.name}) of ${targetModel.name}`,
        );
      }
    }
    if (relation.kind === 'manyToMany' && relation.inverse !== undefined) {
      const inverse = targetModel.relations.find((r) => r.property === relation.inverse);
      if (!inverse || inverse.kind !== 'manyToMany' || inverse.target() !== root) {
        throw new SchemaError(
          `${where}: inverse ${JSON.stringify(relation.inverse)} must be a @ManyToMany(() => ${model.name}) of ${targetModel.name}`,
        );
      }
    }
  }
  checked.add(root);
}
