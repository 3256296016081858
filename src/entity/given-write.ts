import { attributeFailure } from '../errors/attribute-failure';
import { ArgumentError, NotFoundError, ValidationError } from '../errors/errors';
import { encodeAttributesInto } from '../mapper/attribute-encoder';
import { ChangeSet } from '../mapper/change-set';
import { EncodedFields } from '../mapper/encoded-fields';
import { GivenAttributes, givenAttributes, givenChanges } from '../mapper/given-attributes';
import { ModelDescriptor } from '../model/model-descriptor';
import type { UpsertOutcome } from '../store/lua/upsert';
import type { AttributeInput, EntityClass, Persisted } from '../types/entity-types';
import type { UpdateOptions } from '../types/write-types';
import { isAttributeObject } from '../util/attribute-object';
import { describeValue } from '../util/describe-value';
import { buildEntity } from './build-entity';
import type { StatefulEntity } from './entity-state';
import { expiryMs } from './expiry';
import { buildStored } from './materialize';
import { validateOption } from './validate-option';
import { validateEntity, validateGiven } from './validate-entity';
import { prepareWrite, refusal } from './write-entity';

/** A write of given attributes without a loaded instance (Model.update, Model.upsert), checked and encoded. */
export interface GivenWrite {
  /** An instance built from the given attributes: what validation and refusals read. */
  readonly entity: object;
  readonly given: GivenAttributes;
  readonly changes: ChangeSet;
  /** The `ttl` option in ms (undefined: none). */
  readonly ttl: number | undefined;
  /** The @Version value given: the version the caller expects the object to hold. */
  readonly expectedVersion: string | undefined;
}

/**
 * Checks and encodes what `operation` is given, before anything is sent: attribute names (ValidationError),
 * values (codecs, and class-validator unless `validate: false`: only the given attributes for an update, all of
 * them for an upsert, which may create), a capped model's attribute, and `ttl` (expiryMs).
 */
export async function givenWrite<T extends StatefulEntity>(
  model: ModelDescriptor,
  ctor: EntityClass<T>,
  attributes: unknown,
  options: UpdateOptions,
  operation: 'update' | 'upsert',
): Promise<GivenWrite> {
  if (!isAttributeObject(attributes)) {
    throw new ArgumentError(`${model.name}.${operation} takes an object of attributes, got ${describeValue(attributes)}`);
  }
  const input = attributes as Record<string, unknown>;
  if (model.computed.length > 0) {
    // the getter reads the object's other attributes, which a write of given attributes does not load
    const names = model.computed.map((attribute) => attribute.property).join(', ');
    throw new ArgumentError(
      `${model.name}.${operation} writes without loading the object, and cannot compute ${names}: load it and save() it`,
    );
  }
  if (operation === 'update' && Object.hasOwn(input, 'id')) {
    throw new ArgumentError(`${model.name}.update: the id is its first argument, not an attribute to write`);
  }
  const validate = validateOption(`${model.name}.${operation}`, options.validate);
  const ttl = options.ttl === undefined ? undefined : expiryMs(model, options.ttl, 'ttl must be');
  const entity = buildEntity(ctor, input as AttributeInput<T>);
  const given = givenAttributes(model, input);
  if (operation === 'upsert') {
    prepareWrite(model, entity, false);
    if (validate) await validateEntity(model, entity);
  } else {
    refuseClearedCap(model, entity, given);
    if (validate) await validateGiven(model, entity, new Set(Object.keys(input)));
  }
  return { entity, given, changes: givenChanges(model, entity, given), ttl, expectedVersion: expectedVersion(model, input) };
}

/** The entity as stored after the write, or the write's refusal as its typed error (`id`: an update's). */
export function storedEntity<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  model: ModelDescriptor,
  entity: object,
  outcome: UpsertOutcome,
  id: string | undefined,
): Persisted<T> {
  if ('notArray' in outcome) throw notArray(model, entity, outcome.notArray);
  if (!('fields' in outcome)) throw refusal(model, entity, outcome, id);
  // a cap's trim evicted the object at once: it is not stored
  if (outcome.fields.size === 0) throw new NotFoundError(model.name, outcome.id);
  return buildStored(ctor, model, outcome.id, outcome.fields);
}

/** An array operator's attribute (by `field`) whose stored value is no JSON array: a ValidationError naming it. */
function notArray(model: ModelDescriptor, entity: object, field: string): ValidationError {
  const property = model.attributes.find((attribute) => attribute.field === field)?.property ?? field;
  return new ValidationError(model.name, [
    attributeFailure(
      entity,
      property,
      undefined,
      'isArray',
      `${property}: the stored value is not an array, so push, pull and addToSet cannot apply`,
    ),
  ]);
}

/** A capped model's objects hold the attribute the cap is by: removing it is a ValidationError, as save()'s. */
function refuseClearedCap(model: ModelDescriptor, entity: object, given: GivenAttributes): void {
  const cap = model.cap?.index.attribute;
  if (cap && given.cleared.includes(cap)) {
    throw new ValidationError(model.name, [
      attributeFailure(entity, cap.property, null, 'isDefined', `${cap.property} is required: the model is capped by it`),
    ]);
  }
}

/** The @Version value given, encoded (a value that is no version is a ValidationError). */
function expectedVersion(model: ModelDescriptor, input: Record<string, unknown>): string | undefined {
  const version = model.version;
  if (!version || input[version.property] === undefined || input[version.property] === null) return undefined;
  const fields: EncodedFields = new Map();
  encodeAttributesInto(model, { [version.property]: input[version.property] }, fields, [version]);
  return fields.get(version.field);
}
