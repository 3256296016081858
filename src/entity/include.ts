import { describeValue } from '../util/describe-value';
import { QueryError } from '../errors/errors';
import type { ModelDescriptor } from '../model/model-descriptor';
import type { Persisted } from '../types/entity-types';
import { preloadParent } from '../types/relation-handle';
import { inSameTenant } from '../model/tenant-scope';

/**
 * The `include` option checked, before the query runs: an array of the names of the model's @BelongsTo
 * relations. Anything else is a QueryError: a Set, a string or an array-like would otherwise be read
 * (or skipped) in a way the caller did not mean.
 */
export function checkInclude(model: ModelDescriptor, include: unknown): readonly string[] {
  if (!Array.isArray(include))
    throw new QueryError(`${model.name}: include takes an array of @BelongsTo relation names, got ${describeValue(include)}`);
  for (let i = 0; i < include.length; i++) {
    const name: unknown = include[i];
    const relation = typeof name === 'string' ? model.relations.find((r) => r.property === name) : undefined;
    if (!relation || relation.kind !== 'belongsTo') {
      throw new QueryError(`${model.name}: include takes @BelongsTo relations; ${describeValue(name)} is not one`);
    }
  }
  return include as readonly string[];
}

type Loadable = { findMany(ids: readonly string[]): Promise<Array<Persisted<object> | null>> };

/** What `include` needs of a @BelongsTo handle: the parent's id, and where to hand it the parent it read. */
interface ParentHandle {
  readonly id: string | undefined;
  [preloadParent](parent: Persisted<object> | null): void;
}

/**
 * Loads the parents of `relations` (@BelongsTo properties) for all `entities` at once: one findMany per
 * relation, so a page of N objects costs one more round trip per relation, not N.
 */
export async function includeParents(model: ModelDescriptor, entities: readonly object[], relations: readonly string[]): Promise<void> {
  for (const name of checkInclude(model, relations)) {
    const relation = model.relations.find((r) => r.property === name)!;
    const handles = entities.map((entity) => (entity as Record<string, ParentHandle>)[name]);
    const ids = [...new Set(handles.map((handle) => handle.id).filter((id): id is string => id !== undefined))];
    if (ids.length === 0) continue;
    const parents = await (inSameTenant(model, relation.target()).ctor as unknown as Loadable).findMany(ids);
    const byId = new Map(ids.map((id, i) => [id, parents[i]]));
    for (const handle of handles) {
      if (handle.id !== undefined) handle[preloadParent](byId.get(handle.id) ?? null);
    }
  }
}
