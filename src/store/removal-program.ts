import { hashTagOf } from '../keys/hash-tag';
import { RelationError } from '../errors/errors';
import { ModelDescriptor } from '../model/model-descriptor';
import { hasComposedEntries } from '../model/index-descriptor';
import { ModelKeys } from '../keys/model-keys';
import { Removal } from './object-store';
import { pushSpecs } from './index-specs';
import { modelCount } from '../model/model-registry';
import { dependentsOf, hasRelationsToClean, membershipsOf } from '../model/relation-graph';

/**
 * What removing an object of a model takes (`removal`): nothing but its hash and `all` entry, its index
 * entries too, its memo and `exp` entry too (nothing depending on it), or remove.lua with the model table
 * `args`.
 */
export interface RemovalPlan {
  readonly removal: Removal;
  readonly args: string[];
  readonly models: ModelDescriptor[];
  /** A hash tag other than the removed model's that the plan reaches (a related model's), if any (cross-slot.ts). */
  readonly otherTag?: string;
}

const plans = new WeakMap<ModelKeys, { models: number; plan: RemovalPlan }>();

/**
 * The removal plan of an object of a model under a prefix: `id` names the shard of a sharded model. Built once
 * per shard: the relation graph only changes when a model is defined, so it is rebuilt only then (remove() is
 * a hot path).
 */
export function removalPlan(model: ModelDescriptor, prefix: string, id?: string): RemovalPlan {
  const keys = id === undefined ? model.shardKeys(prefix)[0] : model.keysOf(prefix, id);
  const cached = plans.get(keys);
  if (cached && cached.models === modelCount()) return cached.plan;
  const related = hasRelationsToClean(model, prefix);
  const program = removalProgram(model, prefix, keys);
  // an expirable model's objects may keep a memo (expire()), as every object of a model with a ttl or a cap does;
  // tag, compound and composite unique entries are found by remove.lua (indexes.lua's eachEntry), not the bound SPEC
  const removal: Removal =
    related || hasComposedEntries(model.indexes)
      ? { kind: 'program', args: program.args }
      : !model.keepsMemo && model.indexes.length === 0
        ? { kind: 'plain' }
        : !model.keepsMemo && !model.expirable
          ? { kind: 'indexed' }
          : { kind: 'memo', args: program.args };
  const plan = { ...program, removal };
  plans.set(keys, { models: modelCount(), plan });
  return plan;
}

/**
 * The model table remove.lua walks (relations.lua): the removed object's model first, then every model whose
 * objects can depend on it, transitively. Each entry: base, index specs, dependents (entry number, foreign
 * key, rule), and many-to-many membership sides (with whether each is an ordered list). Built from the definitions, so cascades follow the graph.
 */
export function removalProgram(
  model: ModelDescriptor,
  prefix: string,
  keys: ModelKeys = model.shardKeys(prefix)[0],
): { args: string[]; models: ModelDescriptor[]; otherTag?: string } {
  const models: ModelDescriptor[] = [model];
  const args: string[] = [];
  const entries: string[][] = [];
  const tag = hashTagOf(keys.base);
  let otherTag: string | undefined;
  const reach = (key: string) => {
    if (otherTag === undefined && hashTagOf(key) !== tag) otherTag = hashTagOf(key);
  };
  for (let i = 0; i < models.length; i++) {
    const current = models[i];
    // the removed object's own shard; models it relates to are never sharded
    const entry = [i === 0 ? keys.base : current.keys(prefix).base];
    reach(entry[0]);
    pushSpecs(entry, current.indexes);
    const dependents = dependentsOf(current);
    entry.push(String(dependents.length));
    for (const dependent of dependents) {
      let at = models.indexOf(dependent.child);
      if (at < 0) at = models.push(dependent.child) - 1;
      entry.push(String(at + 1), dependent.foreignKey, dependent.rule);
    }
    const memberships = membershipsOf(current, prefix);
    entry.push(String(memberships.length));
    for (const sides of memberships) {
      entry.push(sides.mine, sides.other, sides.mineOrdered ? '1' : '0', sides.otherOrdered ? '1' : '0');
      reach(sides.other);
    }
    entries.push(entry);
  }
  args.push(String(models.length));
  for (const entry of entries) args.push(...entry);
  return { args, models, otherTag };
}

/** The error of a removal a 'restrict' rule refused: `model` is the number remove.lua names in the plan's table. */
export function restrictedRemoval(plan: RemovalPlan, id: string, restrictedBy: { model: number; foreignKey: string }): RelationError {
  const child = plan.models[restrictedBy.model - 1];
  return new RelationError(
    `${plan.models[0].name} ${JSON.stringify(id)} cannot be removed: ${child.name} objects still belong to it through ${restrictedBy.foreignKey} (onDelete 'restrict')`,
  );
}
