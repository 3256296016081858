import { caseFoldField } from '../model/index-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';

/**
 * The hash fields a query loads for each object: `#id` (present in every live hash, so a vanished hash reads
 * as nil) followed by every field the entity owns (attributes, and the lower-cased fields of case-insensitive
 * unique attributes: the same set as ModelDescriptor.owns). query.lua then reads each object with HMGET and
 * returns its values only, in one flat list: a third of the reply HGETALL's nested field/value pairs made, and
 * nothing the entity would drop.
 * A model with a dynamic property owns fields no list can name: it is loaded with HGETALL (undefined here).
 */
const cache = new WeakMap<ModelDescriptor, readonly string[] | null>();

export function loadedFields(model: ModelDescriptor): readonly string[] | undefined {
  let fields = cache.get(model);
  if (fields === undefined) {
    if (model.dynamicProperty !== undefined) fields = null;
    else {
      const owned = new Set(model.attributes.map((attribute) => attribute.field));
      for (const index of model.indexes) if (index.caseInsensitive) owned.add(caseFoldField(index.attribute.field));
      fields = ['#id', ...owned];
    }
    cache.set(model, fields);
  }
  return fields ?? undefined;
}
