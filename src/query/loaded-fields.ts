import { EncodedFields } from '../mapper/encoded-fields';
import { fieldsFromReply } from '../mapper/attribute-encoder';
import { caseFoldField } from '../model/index-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';

/** An object a query read: its id and stored fields. */
export interface StoredObject {
  readonly id: string;
  readonly fields: EncodedFields;
}

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

/** The objects of query.lua's 'load' reply: n values per object after HMGET of n fields, else id / HGETALL pairs. */
export function storedObjects(fields: readonly string[] | undefined, reply: ReadonlyArray<unknown>): StoredObject[] {
  const objects: StoredObject[] = [];
  if (fields === undefined) {
    for (let i = 0; i + 1 < reply.length; i += 2) objects.push({ id: String(reply[i]), fields: fieldsFromReply(reply[i + 1]) });
    return objects;
  }
  const stride = fields.length;
  for (let at = 0; at + stride <= reply.length; at += stride) {
    const stored: EncodedFields = new Map();
    // position 0 holds the id, in place of `#id`, which the entity does not own
    for (let f = 1; f < stride; f++) {
      const value = reply[at + f];
      if (value !== null && value !== undefined) stored.set(fields[f], String(value));
    }
    objects.push({ id: String(reply[at]), fields: stored });
  }
  return objects;
}
