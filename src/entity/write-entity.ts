import { v4 as uuidv4 } from 'uuid';
import { activeConnection } from '../redis/connection';
import { attributeFailure } from '../errors/attribute-failure';
import { NotFoundError, RedisRecordError, RelationError, StaleObjectError, UniqueConstraintError, ValidationError } from '../errors/errors';
import { refuseCrossSlotParent } from '../store/cross-slot';
import { parentChecks } from '../store/parent-checks';
import { encodeAttributes, encodeUpdatedAttributes } from '../mapper/attribute-encoder';
import { isEmpty } from '../mapper/change-set';
import { EncodedFields } from '../mapper/encoded-fields';
import { ObjectStore, SaveOutcome } from '../store/object-store';
import { planUpdate, UpdatePlan } from '../mapper/update-plan';
import { ModelDescriptor } from '../model/model-descriptor';
import { EntityState, snapshotOf, stateOf } from './entity-state';
import { claimedWrite, claimsUniques } from './claimed-write';

/**
 * The write step of save(): one script call that creates the object, or updates what changed since the
 * snapshot (with the @Version check), then the instance's id, version and snapshot follow what was stored.
 * `ttl` (ms, the `ttl` option checked) gives the object that time to live in the same script.
 */
export async function writeEntity(model: ModelDescriptor, entity: object, state: EntityState, ttl?: number): Promise<boolean> {
  const creating = state.stored === undefined;
  const connection = activeConnection();
  const store = new ObjectStore(model, connection);
  const parents = parentChecks(model, connection);
  const claiming = claimsUniques(model);
  let outcome: SaveOutcome;
  if (creating) {
    prepareWrite(model, entity, true);
    const fields = encodeAttributes(model, entity);
    refuseCrossSlotParent(parents, fields);
    const given = model.idStrategy === 'given' ? requiredGivenId(model, entity, state) : undefined;
    if (claiming) {
      // the id is drawn first: the values are claimed under it before the object exists
      const id = given ?? (model.idStrategy === 'uuid' ? uuidv4() : await store.allocateId());
      outcome = await claimedWrite(model, connection, id, fields, undefined, () => store.insert(fields, id, parents, ttl));
    } else {
      outcome = await store.insert(fields, given ?? (model.idStrategy === 'uuid' ? uuidv4() : undefined), parents, ttl);
    }
    if ('id' in outcome) state.stored = fields;
  } else {
    const plan = planEntityUpdate(model, entity, state);
    refuseCrossSlotParent(parents, plan.changes.set);
    const update = () => store.update(state.id!, plan.changes, plan.readVersion, parents, ttl);
    outcome = isEmpty(plan.changes)
      ? ttl === undefined || (await store.expire(state.id!, ttl))
        ? { id: state.id! }
        : { missing: true }
      : claiming
        ? await claimedWrite(model, connection, state.id!, plan.stored, snapshotOf(state)!, update, { readVersion: plan.readVersion })
        : await update();
    if ('id' in outcome) keepUpdate(model, entity, state, plan.stored);
  }
  if (!('id' in outcome)) throw refusal(model, entity, outcome, creating ? undefined : state.id);
  state.id = outcome.id;
  return creating;
}

/** What an update of a stored instance writes: its changes since the snapshot (prepareWrite done first). */
export function planEntityUpdate(model: ModelDescriptor, entity: object, state: EntityState): UpdatePlan {
  prepareWrite(model, entity, false);
  return planUpdate(model, snapshotOf(state)!, encodeUpdatedAttributes(model, entity));
}

/** After a stored update: the instance's snapshot, and with @Version its version, become `stored` (the plan's). */
export function keepUpdate(model: ModelDescriptor, entity: object, state: EntityState, stored: EncodedFields): void {
  state.stored = stored;
  if (model.version) {
    const version = stored.get(model.version.field);
    (entity as Record<string, unknown>)[model.version.property] = version === undefined ? undefined : Number(version);
  }
}

/**
 * What every write checks and sets before encoding: version 1 on a create, and a capped model's attribute
 * present (the cap is kept by it). Also the bulk create's (create-many.ts).
 */
export function prepareWrite(model: ModelDescriptor, entity: object, creating: boolean): void {
  const target = entity as Record<string, unknown>;
  if (creating && model.version) target[model.version.property] = 1;
  if (model.cap) {
    const property = model.cap.index.attribute.property;
    if (target[property] === undefined || target[property] === null) {
      throw new ValidationError(model.name, [
        attributeFailure(entity, property, undefined, 'isDefined', `${property} is required: the model is capped by it`),
      ]);
    }
  }
}

/** The error of a refused write: of a create when `id` is undefined, else of an update of object `id`. */
export function refusal(
  model: ModelDescriptor,
  entity: object,
  outcome: Exclude<SaveOutcome, { id: string }>,
  id: string | undefined,
): Error {
  const target = entity as Record<string, unknown>;
  if ('uniqueTaken' in outcome) return uniqueTaken(model, target, outcome.uniqueTaken);
  if ('missingParent' in outcome) {
    const field = outcome.missingParent;
    return new RelationError(`${model.name}.${field}: no object ${JSON.stringify(target[field])} to belong to`);
  }
  if (id === undefined && model.idStrategy === 'given') return new UniqueConstraintError(model.name, 'id', stateOf(entity).id);
  if (id === undefined) return new RedisRecordError(`${model.name}: the generated id exists already`);
  if ('stale' in outcome) return new StaleObjectError(model.name, id);
  return new NotFoundError(model.name, id);
}

/** The id a new object of an `idStrategy: 'given'` model was built with (build-entity.ts); none is a ValidationError. */
export function requiredGivenId(model: ModelDescriptor, entity: object, state: EntityState): string {
  if (state.id !== undefined) return state.id;
  throw new ValidationError(model.name, [
    attributeFailure(entity, 'id', undefined, 'givenId', `${model.name}: its ids are given (idStrategy 'given'): create({ id, ... })`),
  ]);
}

/** The error of a unique value another object holds: `name` is the attribute, or a composite unique's name. */
export function uniqueTaken(model: ModelDescriptor, target: Record<string, unknown>, name: string): UniqueConstraintError {
  const parts = model.indexes.find((index) => index.kind === 'unique' && index.parts && index.attribute.field === name)?.parts;
  if (!parts) return new UniqueConstraintError(model.name, name, target[name]);
  const attributes = parts.map((part) => part.property);
  const values = attributes.map((property) => target[property]);
  return new UniqueConstraintError(model.name, name, values, { attributes, values });
}
