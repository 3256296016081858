import { attributeFailure } from '../errors/attribute-failure';
import { ArgumentError, ValidationError } from '../errors/errors';
import { descriptorOf } from '../model/model-registry';
import { setUpInstance } from '../model/instance-setup';
import type { AttributeInput, EntityClass } from '../types/entity-types';
import { isAttributeObject } from '../util/attribute-object';
import { describeValue } from '../util/describe-value';
import { StatefulEntity, stateOf } from './entity-state';
import { normalizeId } from '../keys/id-format';
import type { ModelDescriptor } from '../model/model-descriptor';

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
  const givesId = model.idStrategy === 'given' && Object.hasOwn(attributes, 'id');
  // for-in over own keys, as Object.keys lists them, without the array (builds of a bulk load are hot)
  let unknown: string[] | undefined;
  for (const key in attributes) {
    if (!Object.hasOwn(attributes, key) || (givesId && key === 'id')) continue;
    const attribute = model.attribute(key);
    if ((!attribute && key !== model.dynamicProperty) || attribute?.computed) (unknown ??= []).push(key);
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
              `${model.name}: id is not an attribute; it is given when the object is first saved (@Model({ idStrategy: 'given' }) lets the application give it)`,
            )
          : model.attribute(key)?.computed
            ? attributeFailure(
                entity,
                key,
                attributes[key],
                'computed',
                `${model.name}.${key} is computed (its getter's value): it cannot be given`,
              )
            : attributeFailure(entity, key, attributes[key], 'unknownAttribute', `${model.name} has no attribute ${key}`),
      ),
    );
  }
  if (givesId) givenId(model, entity, attributes.id);
  for (const key in attributes) {
    if (!Object.hasOwn(attributes, key) || (givesId && key === 'id')) continue;
    const value = attributes[key];
    (entity as Record<string, unknown>)[key] = value === null ? undefined : value;
  }
  return entity;
}

/**
 * The id the application gives a new object of an `idStrategy: 'given'` model: checked as every id is (InvalidIdError
 * for one that could name another key), kept as the instance's id until the create stores it. null or undefined
 * gives none (the create then refuses it).
 */
function givenId(model: ModelDescriptor, entity: object, id: unknown): void {
  if (id === undefined || id === null) return;
  stateOf(entity).id = normalizeId(model.name, id);
}
