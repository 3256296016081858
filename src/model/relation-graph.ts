import { ModelDescriptor } from './model-descriptor';
import { allModels, descriptorOf } from './model-registry';
import { OnDelete, RelationDescriptor } from './relation-descriptor';
import { inSameTenant } from './tenant-scope';

type BelongsToRelation = Extract<RelationDescriptor, { kind: 'belongsTo' }>;
type ManyToManyRelation = Extract<RelationDescriptor, { kind: 'manyToMany' }>;

/** The root model class of a descriptor (a tenant scope's class is a subclass of it). */
function rootOf(model: ModelDescriptor): Function {
  return model.tenant === undefined ? model.ctor : Object.getPrototypeOf(model.ctor);
}

/** An object of `child` belongs to an object of `parent` through `foreignKey`; deleting the parent applies `rule`. */
export interface Dependent {
  readonly child: ModelDescriptor;
  readonly foreignKey: string;
  readonly rule: OnDelete;
}

/**
 * Every @BelongsTo in any model that points at `parent`, with the onDelete of the matching @HasMany on the
 * parent ('restrict' when the parent declares none: a child never points to a missing parent).
 */
export function dependentsOf(parent: ModelDescriptor): Dependent[] {
  const parentRoot = rootOf(parent);
  const dependents: Dependent[] = [];
  for (const model of allModels()) {
    for (const relation of model.relations) {
      if (relation.kind !== 'belongsTo' || relation.target() !== parentRoot) continue;
      const hasMany = parent.relations.find((r) => r.kind === 'hasMany' && r.inverse === relation.property && r.target() === model.ctor);
      dependents.push({
        child: inSameTenant(parent, model.ctor),
        foreignKey: (relation as BelongsToRelation).foreignKey,
        rule: hasMany?.kind === 'hasMany' ? hasMany.onDelete : 'restrict',
      });
    }
  }
  return dependents;
}

/** The two membership sets of a many-to-many pair, as key prefixes to which an id is appended. */
export interface MembershipSides {
  /** This object's set of related ids. */
  readonly mine: string;
  /** The related objects' sets, holding this object's id. */
  readonly other: string;
  /** Whether `mine`, and whether `other`, are ordered lists (sorted sets of positions) rather than sets. */
  readonly mineOrdered: boolean;
  readonly otherOrdered: boolean;
}

/** Whether the other side of a @ManyToMany declared on `model` is an ordered list (its declared inverse is). */
export function inverseOrdered(model: ModelDescriptor, relation: ManyToManyRelation): boolean {
  if (!relation.inverse) return false;
  const inverse = descriptorOf(relation.target()).relations.find((r) => r.property === relation.inverse);
  return inverse?.kind === 'manyToMany' && inverse.ordered;
}

/** The other side's set prefix of a @ManyToMany declared on `model`. */
export function inverseSetPrefix(model: ModelDescriptor, relation: ManyToManyRelation, prefix: string): string {
  const target = inSameTenant(model, relation.target()).keys(prefix).base;
  return relation.inverse ? `${target}:rel:${relation.inverse}:` : `${target}:rev:${model.name}.${relation.property}:`;
}

/** Every many-to-many membership an object of `model` takes part in, declared on either side. */
export function membershipsOf(model: ModelDescriptor, prefix: string): MembershipSides[] {
  if (model.shards > 1) return []; // a sharded model takes part in no relation (check-relations.ts)
  const base = model.keys(prefix).base;
  const sides: MembershipSides[] = [];
  for (const relation of model.relations) {
    if (relation.kind === 'manyToMany') {
      sides.push({
        mine: `${base}:rel:${relation.property}:`,
        other: inverseSetPrefix(model, relation, prefix),
        mineOrdered: relation.ordered,
        otherOrdered: inverseOrdered(model, relation),
      });
    }
  }
  const root = rootOf(model);
  for (const other of allModels()) {
    for (const relation of other.relations) {
      if (relation.kind !== 'manyToMany' || relation.target() !== root) continue;
      const otherModel = inSameTenant(model, other.ctor);
      const mine = relation.inverse ? `${base}:rel:${relation.inverse}:` : `${base}:rev:${other.name}.${relation.property}:`;
      sides.push({
        mine,
        other: `${otherModel.keys(prefix).base}:rel:${relation.property}:`,
        mineOrdered: inverseOrdered(other, relation),
        otherOrdered: relation.ordered,
      });
    }
  }
  return sides;
}

/** Whether removing an object of the model touches anything beyond its own hash, `all` and index entries. */
export function hasRelationsToClean(model: ModelDescriptor, prefix: string): boolean {
  return dependentsOf(model).length > 0 || membershipsOf(model, prefix).length > 0;
}
