import { AttributeDescriptor } from '../model/attribute-descriptor';
import { caseFoldField } from '../model/index-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import { ChangeSet } from './change-set';
import { encodeAttributesInto } from './attribute-encoder';
import { EncodedFields } from './encoded-fields';

/**
 * The attributes a write without a loaded instance (Model.update, Model.upsert) was given, from the caller's
 * object: those to set (a value), those to remove (null); a key holding undefined is neither. The @Version
 * attribute is the script's to write: its value given is the version the caller expects.
 */
export interface GivenAttributes {
  readonly set: readonly AttributeDescriptor[];
  readonly cleared: readonly AttributeDescriptor[];
  /** Whether the caller's object holds the dynamic attributes' bag. */
  readonly dynamic: boolean;
}

/** Sorts the keys of `input` (known to name attributes) into what GivenAttributes holds. */
export function givenAttributes(model: ModelDescriptor, input: Record<string, unknown>): GivenAttributes {
  const set: AttributeDescriptor[] = [];
  const cleared: AttributeDescriptor[] = [];
  for (const attribute of model.attributes) {
    if (!Object.hasOwn(input, attribute.property) || attribute === model.version) continue;
    const value = input[attribute.property];
    if (value === null) cleared.push(attribute);
    else if (value !== undefined) set.push(attribute);
  }
  const dynamic = model.dynamicProperty !== undefined && input[model.dynamicProperty] !== undefined;
  return { set, cleared, dynamic };
}

/**
 * What the write sets and removes: the fields of the attributes set, encoded from `entity` (built from the
 * caller's object; a value a codec refuses is a ValidationError), with their derived fields; the fields of the
 * cleared ones, with theirs.
 */
export function givenChanges(model: ModelDescriptor, entity: object, given: GivenAttributes): ChangeSet {
  // only what was given: an instance's field initializers, a bag among them, are no values given
  const values: Record<string, unknown> = {};
  for (const attribute of given.set) values[attribute.property] = (entity as Record<string, unknown>)[attribute.property];
  if (given.dynamic) values[model.dynamicProperty!] = (entity as Record<string, unknown>)[model.dynamicProperty!];
  const set: EncodedFields = new Map();
  encodeAttributesInto(model, values, set, given.set);
  const removed: string[] = [];
  for (const attribute of given.cleared) {
    removed.push(attribute.field);
    if (model.indexes.some((index) => index.caseInsensitive && index.attribute === attribute)) removed.push(caseFoldField(attribute.field));
  }
  return { set, removed };
}
