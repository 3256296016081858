import { v4 as uuidv4 } from 'uuid';
import { activeConnection } from '../connection/connection';
import { attributeFailure } from '../errors/attribute-failure';
import { NotFoundError, RedisRecordError, RelationError, StaleObjectError, UniqueConstraintError, ValidationError } from '../errors/errors';
import { parentChecks } from '../relations/parent-checks';
import { encodeAttributes } from '../mapper/attribute-encoder';
import { isEmpty } from '../mapper/change-set';
import { ObjectStore, SaveOutcome } from '../mapper/object-store';
import { planUpdate } from '../mapper/update-plan';
import { ModelDescriptor } from '../metadata/model-descriptor';
import { EntityState, snapshotOf } from './entity-state';
import { claimedWrite, claimsUniques } from './claimed-write';

/**
 * The write step of save(): one script call that creates the object, or updates what changed since the
 * snapshot (with the @Version check), then the instance's id, version and snapshot follow what was stored.
 */
export async function writeEntity(model: ModelDescriptor, entity: object, state: EntityState): Promise<boolean> {
  const target = entity as Record<string, unknown>;
  const creating = state.stored === undefined;
  if (creating && model.version) target[model.version.property] = 1;
  if (model.cap && (target[model.cap.index.attribute.property] === undefined || target[model.cap.index.attribute.property] === null)) {
    const property = model.cap.index.attribute.property;
    throw new ValidationError(model.name, [
      attributeFailure(entity, property, undefined, 'isDefined', `${property} is required: the model is capped by it`),
    ]);
  }
  const fields = encodeAttributes(model, entity);
  const connection = activeConnection();
  const store = new ObjectStore(model, connection);
  const parents = parentChecks(model, connection.prefix);
  const claiming = claimsUniques(model);
  let outcome: SaveOutcome;
  if (creating) {
    if (claiming) {
      // the id is drawn first: the values are claimed under it before the object exists
      const id = model.idStrategy === 'uuid' ? uuidv4() : await store.allocateId();
      outcome = await claimedWrite(model, connection, id, fields, undefined, () => store.insert(fields, id, parents));
    } else {
      outcome = await store.insert(fields, model.idStrategy === 'uuid' ? uuidv4() : undefined, parents);
    }
    if ('id' in outcome) state.stored = fields;
  } else {
    const snapshot = snapshotOf(state)!;
    const plan = planUpdate(model, snapshot, fields);
    const update = () => store.update(state.id!, plan.changes, plan.readVersion, parents);
    outcome = isEmpty(plan.changes)
      ? { id: state.id! }
      : claiming
        ? await claimedWrite(model, connection, state.id!, plan.stored, snapshot, update)
        : await update();
    if ('id' in outcome) {
      state.stored = plan.stored;
      if (model.version) target[model.version.property] = Number(plan.stored.get(model.version.field));
    }
  }
  if ('uniqueTaken' in outcome) {
    const attribute = outcome.uniqueTaken;
    throw new UniqueConstraintError(model.name, attribute, target[attribute]);
  }
  if ('stale' in outcome) throw new StaleObjectError(model.name, state.id!);
  if ('missingParent' in outcome) {
    const field = outcome.missingParent;
    throw new RelationError(`${model.name}.${field}: no object ${JSON.stringify(target[field])} to belong to`);
  }
  if ('missing' in outcome) {
    if (creating) throw new RedisRecordError(`${model.name}: the generated id exists already`);
    throw new NotFoundError(model.name, state.id!);
  }
  state.id = outcome.id;
  return creating;
}
