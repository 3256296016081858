import { attributeFailure } from '../errors/attribute-failure';
import { ArgumentError, ValidationError } from '../errors/errors';
import { descriptorOf } from '../model/model-registry';
import { setUpInstance } from '../model/instance-setup';
import type { AttributeInput, EntityClass } from '../types/entity-types';
import { isAttributeObject } from '../util/attribute-object';
import { describeValue } from '../util/describe-value';
import { StatefulEntity } from './entity-state';

/**
 * build(): a new, unsaved instance with the given attributes. Unknown attribute names are a ValidationError;
 * anything but an object of attributes (a primitive, an array, an entity, a Map, a Set, a Date) an ArgumentError.
 */
export function buildEntity<T extends StatefulEntity>(ctor: EntityClass<T>, input: AttributeInput<T>): T {
  const model = descriptorOf(ctor);
  if (!isAttributeObject(input)) {
    // a Map, a Set or a Date among them: their entries are not properties, and would be no attributes at all
    throw new ArgumentError(`${model.name}: build and create take an object of attributes, got ${describeValue(input)}`);
  }
  if (input instanceof StatefulEntity) {
    // its own properties are another object's state (of this model or another one), not attributes given
    throw new ArgumentError(`${model.name}: build and create take an object of attributes, not an entity; got ${describeValue(input)}`);
  }
  const entity = new ctor();
  setUpInstance(model, entity);
  const attributes = input as Record<string, unknown>;
  // for-in over own keys, as Object.keys lists them, without the array (builds of a bulk load are hot)
  let unknown: string[] | undefined;
  for (const key in attributes) {
    if (Object.hasOwn(attributes, key) && !model.attribute(key) && key !== model.dynamicProperty) (unknown ??= []).push(key);
  }
  if (unknown) {
    throw new ValidationError(
      model.name,
      unknown.map((key) =>
        key === 'id'
          ? // toJSON() output given back, say: the id is not an attribute
            attributeFailure(
              entity,
              key,
              attributes[key],
              'unknownAttribute',
              `${model.name}: id is not an attribute; it is given when the object is first saved`,
            )
          : attributeFailure(entity, key, attributes[key], 'unknownAttribute', `${model.name} has no attribute ${key}`),
      ),
    );
  }
  for (const key in attributes) {
    if (!Object.hasOwn(attributes, key)) continue;
    const value = attributes[key];
    (entity as Record<string, unknown>)[key] = value === null ? undefined : value;
  }
  return entity;
}
