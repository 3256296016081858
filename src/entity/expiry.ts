import { wholeMilliseconds } from '../util/whole-milliseconds';
import { ArgumentError, NotFoundError, SchemaError } from '../errors/errors';
import { activeStore } from './active-store';
import { ModelDescriptor } from '../model/model-descriptor';

/** A time to live Redis can hold: whole milliseconds, at least 1, ending within the next 100,000 years. */
const LONGEST_MS = 100_000 * 365 * 86_400_000;

function milliseconds(model: ModelDescriptor, seconds: unknown, what: string): number {
  const ms = wholeMilliseconds(seconds);
  if (ms === undefined || ms < 1 || ms > LONGEST_MS) {
    throw new ArgumentError(`${model.name}: ${what} a positive number of seconds (millisecond precision, at most 100,000 years)`);
  }
  return ms;
}

/**
 * The time to live in ms that expire() or a write's `ttl` option (`seconds`) gives: SchemaError for a model whose
 * objects never expire, ArgumentError for a value Redis cannot hold. Checked before anything is written.
 */
export function expiryMs(model: ModelDescriptor, seconds: unknown, what = 'expire takes'): number {
  if (!model.expirable) {
    throw new SchemaError(`${model.name}: objects of this model do not expire; declare @Model({ expirable: true }) or a ttl`);
  }
  return milliseconds(model, seconds, what);
}

export async function expireObject(model: ModelDescriptor, id: string, seconds: number): Promise<void> {
  if (!(await activeStore(model).expire(id, expiryMs(model, seconds)))) throw new NotFoundError(model.name, id);
}

export async function persistObject(model: ModelDescriptor, id: string): Promise<void> {
  if (!(await activeStore(model).persist(id))) throw new NotFoundError(model.name, id);
}

/** Seconds left (fractional), or null when the object does not expire. */
export async function ttlOf(model: ModelDescriptor, id: string): Promise<number | null> {
  const left = await activeStore(model).ttl(id);
  if (left === undefined) throw new NotFoundError(model.name, id);
  return left === null ? null : left / 1000;
}

/** Deletes every expired object, `batch` per script call; resolves to how many. */
export async function sweepModel(model: ModelDescriptor, batch = 1000): Promise<number> {
  const store = activeStore(model);
  let total = 0;
  for (;;) {
    const swept = await store.sweep(batch);
    total += swept;
    if (swept < batch) return total;
  }
}
