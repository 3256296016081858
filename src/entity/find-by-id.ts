import { NotFoundError } from '../errors/errors';
import { asRejection } from '../errors/as-rejection';
import { refuseExtraArguments } from '../errors/no-arguments';
import { normalizeId } from '../keys/id-format';
import { descriptorOf } from '../model/model-registry';
import { afterSchema } from '../schema/first-use';
import type { EntityClass, Persisted } from '../types/entity-types';
import { activeStore } from './active-store';
import type { StatefulEntity } from './entity-state';
import { buildStored } from './materialize';
import { runHooks } from './run-hooks';

/** find(): the object with this id, or null; one round trip, then its AfterLoad hooks. */
export async function findOne<T extends StatefulEntity>(ctor: EntityClass<T>, id: string | number): Promise<Persisted<T> | null> {
  const model = descriptorOf(ctor);
  const normalized = normalizeId(model.name, id);
  const fields = await afterSchema(model, () => activeStore(model).loadOne(normalized));
  if (!fields) return null;
  const entity = buildStored(ctor, model, normalized, fields);
  const hooks = runHooks(model, entity, 'afterLoad');
  if (hooks) await hooks;
  return entity;
}

/** findOrFail(): the object with this id; NotFoundError when there is none. */
export async function findOrFailOne<T extends StatefulEntity>(ctor: EntityClass<T>, id: string | number): Promise<Persisted<T>> {
  const found = await findOne(ctor, id);
  if (!found) throw new NotFoundError(descriptorOf(ctor).name, String(id));
  return found;
}

/** exists(): whether an object with this id is stored (and has not expired). */
export async function existsById(ctor: Function, id: string | number, given: ArrayLike<unknown>): Promise<boolean> {
  const model = descriptorOf(ctor);
  if (given.length > 1) refuseExtraArguments(`${model.name}.exists`, given, 1, 'an id');
  const normalized = normalizeId(model.name, id);
  return afterSchema(model, () => activeStore(model).exists(normalized));
}

/**
 * A call of `method` (find, findOrFail) that takes the id alone: given more (from a caller without types), the
 * ArgumentError naming what came after it, as a rejection; else `run`'s promise (an argument that is undefined
 * is none).
 */
export function byIdAlone<R>(ctor: Function, method: string, given: ArrayLike<unknown>, run: () => Promise<R>): Promise<R> {
  if (given.length <= 1) return run();
  return asRejection(() => {
    refuseExtraArguments(`${descriptorOf(ctor).name}.${method}`, given, 1, 'an id');
    return run();
  });
}
