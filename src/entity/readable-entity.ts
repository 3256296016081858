import type { InspectOptionsStylized, inspect as Inspect } from 'util';
import type { ModelDescriptor } from '../model/model-descriptor';
import { descriptorOf } from '../model/model-registry';
import { isRemovedInstance, stateOf } from './entity-state';

/**
 * How an entity shows itself: toJSON's `{ id, ...attributes }`, and what `util.inspect` (and so `console.log`)
 * prints, `Post (persisted) { id: '1', title: 'Hello' }`: the class, whether the instance is new, persisted or
 * removed, its id and its attributes.
 */

/** `{ id, ...attributes }`; absent attributes are left out. */
export function entityJSON(model: ModelDescriptor, entity: object, id: string | undefined): Record<string, unknown> {
  const json: Record<string, unknown> = { id };
  for (const attribute of model.attributes) {
    const value = (entity as Record<string, unknown>)[attribute.property];
    if (value !== undefined && value !== null) json[attribute.property] = value;
  }
  if (model.dynamicProperty) json[model.dynamicProperty] = { ...((entity as Record<string, unknown>)[model.dynamicProperty] as object) };
  return json;
}

/**
 * What `util.inspect` prints for an entity (its `[util.inspect.custom]`). A new instance shows no id; a removed
 * one the id it had. Never throws: an object no model describes (a class without @Model) or no constructor made
 * (`Object.create(Post.prototype)`) shows its own properties.
 */
export function inspectEntity(entity: object, depth: number, options: InspectOptionsStylized, inspect: typeof Inspect): string {
  const name = entity.constructor?.name ?? 'Object';
  // its attributes are one level down, as a plain object's properties: `depth` is what is left of the call's depth
  const nested = { ...options, depth };
  let model: ModelDescriptor;
  let state: ReturnType<typeof stateOf>;
  try {
    model = descriptorOf(entity.constructor);
    state = stateOf(entity);
  } catch {
    return `${name} ${inspect({ ...entity }, nested)}`;
  }
  const removed = state.stored === undefined && isRemovedInstance(entity);
  const life = state.stored !== undefined ? 'persisted' : removed ? 'removed' : 'new';
  const label = `${name} (${life}${model.tenant === undefined ? '' : `, tenant ${model.tenant}`})`;
  if (depth < 0) return options.stylize(`[${label}]`, 'special');
  // a new instance has no id, unless its model's ids are given (build({ id }))
  const json = entityJSON(model, entity, state.id);
  if (json.id === undefined) delete json.id;
  return `${label} ${inspect(json, nested)}`;
}
