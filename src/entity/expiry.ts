import { activeConnection } from '../connection/connection';
import { NotFoundError, RedisRecordError } from '../errors/errors';
import { ObjectStore } from '../mapper/object-store';
import { ModelDescriptor } from '../metadata/model-descriptor';

function storeOf(model: ModelDescriptor): ObjectStore {
  return new ObjectStore(model, activeConnection());
}

function milliseconds(model: ModelDescriptor, seconds: number): number {
  const ms = seconds * 1000;
  if (typeof seconds !== 'number' || !Number.isFinite(ms) || ms < 1 || !Number.isInteger(ms)) {
    throw new RedisRecordError(`${model.name}: expire takes a positive number of seconds (millisecond precision)`);
  }
  return ms;
}

export async function expireObject(model: ModelDescriptor, id: string, seconds: number): Promise<void> {
  if (!(await storeOf(model).expire(id, milliseconds(model, seconds)))) throw new NotFoundError(model.name, id);
}

export async function persistObject(model: ModelDescriptor, id: string): Promise<void> {
  if (!(await storeOf(model).persist(id))) throw new NotFoundError(model.name, id);
}

/** Seconds left (fractional), or null when the object does not expire. */
export async function ttlOf(model: ModelDescriptor, id: string): Promise<number | null> {
  const left = await storeOf(model).ttl(id);
  if (left === undefined) throw new NotFoundError(model.name, id);
  return left === null ? null : left / 1000;
}

/** Deletes every expired object, `batch` per script call; resolves to how many. */
export async function sweepModel(model: ModelDescriptor, batch = 1000): Promise<number> {
  const store = storeOf(model);
  let total = 0;
  for (;;) {
    const swept = await store.sweep(batch);
    total += swept;
    if (swept < batch) return total;
  }
}
