import { v4 as uuidv4 } from 'uuid';
import { activeConnection } from '../connection/connection';
import { attributeFailure } from '../errors/attribute-failure';
import { RedisRecordError, RelationError, UniqueConstraintError, ValidationError } from '../errors/errors';
import { encodeAttributes } from '../mapper/attribute-encoder';
import { bulkTarget, groupByTarget } from '../mapper/bulk-routing';
import { BulkStore } from '../mapper/bulk-store';
import { EncodedFields } from '../mapper/encoded-fields';
import { SaveOutcome } from '../mapper/object-store';
import { ModelDescriptor } from '../metadata/model-descriptor';
import { parentChecks } from '../relations/parent-checks';
import { inWindows } from './bulk-windows';
import { stateOf } from './entity-state';

/** Script calls awaiting Redis at once: one being applied while the next is on its way. */
const IN_FLIGHT = 2;

/** A new object on its way: the entity, its encoded fields and its given id ('' for a sequence number). */
interface PendingCreate {
  readonly entity: object;
  readonly fields: EncodedFields;
  readonly id: string;
}

/**
 * The write step of saveMany for new objects: what writeEntity does for one create, for many, with one
 * save-many.lua call per chunk (per key base). Each entity's id and snapshot follow what was stored, as
 * after save(). Resolves to the error of each entity that was not created (undefined for those that were).
 */
export async function createMany(model: ModelDescriptor, entities: readonly object[], chunkSize: number): Promise<Array<Error | undefined>> {
  const errors: Array<Error | undefined> = new Array(entities.length).fill(undefined);
  const pending: Array<PendingCreate & { readonly at: number }> = [];
  for (let at = 0; at < entities.length; at++) {
    try {
      pending.push({ ...prepareCreate(model, entities[at]), at });
    } catch (error) {
      errors[at] = error as Error;
    }
  }
  if (pending.length === 0) return errors;
  const connection = activeConnection();
  const store = new BulkStore(model, connection);
  const parents = parentChecks(model, connection.prefix);
  const groups = groupByTarget(pending, (item) => bulkTarget(model, connection.prefix, item.id || undefined));
  for (const { target, items } of groups) {
    await inWindows(items, chunkSize, IN_FLIGHT, async (chunk) => {
      const outcomes = await store.create(target, chunk, parents);
      chunk.forEach((item, i) => {
        errors[item.at] = applyOutcome(model, item, outcomes[i]);
      });
    });
  }
  return errors;
}

/** What writeEntity checks and encodes before a create: version 1, the cap's attribute, the codecs. */
function prepareCreate(model: ModelDescriptor, entity: object): PendingCreate {
  const target = entity as Record<string, unknown>;
  if (model.version) target[model.version.property] = 1;
  if (model.cap) {
    const property = model.cap.index.attribute.property;
    if (target[property] === undefined || target[property] === null) {
      throw new ValidationError(model.name, [
        attributeFailure(entity, property, undefined, 'isDefined', `${property} is required: the model is capped by it`),
      ]);
    }
  }
  const fields = encodeAttributes(model, entity);
  return { entity, fields, id: model.idStrategy === 'uuid' ? uuidv4() : '' };
}

/** Sets the entity's id and snapshot from a stored create, or says why it was refused (as writeEntity does). */
function applyOutcome(model: ModelDescriptor, item: PendingCreate, outcome: SaveOutcome): Error | undefined {
  if ('id' in outcome) {
    const state = stateOf(item.entity);
    state.id = outcome.id;
    state.snapshot = item.fields;
    return undefined;
  }
  const target = item.entity as Record<string, unknown>;
  if ('uniqueTaken' in outcome) return new UniqueConstraintError(model.name, outcome.uniqueTaken, target[outcome.uniqueTaken]);
  if ('missingParent' in outcome) {
    const field = outcome.missingParent;
    return new RelationError(`${model.name}.${field}: no object ${JSON.stringify(target[field])} to belong to`);
  }
  return new RedisRecordError(`${model.name}: the generated id exists already`);
}
