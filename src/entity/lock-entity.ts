import { ArgumentError } from '../errors/errors';
import { knownOptions } from '../errors/options-argument';
import { normalizeId } from '../keys/id-format';
import { descriptorOf } from '../model/model-registry';
import { afterSchema } from '../schema/first-use';
import type { EntityClass, Persisted } from '../types/entity-types';
import { describeValue } from '../util/describe-value';
import type { StatefulEntity } from './entity-state';
import { findOrFailOne } from './find-by-id';
import { LockOptions, withObjectLock } from './locking';
import { LOCK_OPTIONS } from './option-names';

/** withLock(): loads the object and runs `work` on it while holding its lock (locking.ts); resolves to its result. */
export async function withEntityLock<T extends StatefulEntity, R>(
  ctor: EntityClass<T>,
  id: string | number,
  work: (entity: Persisted<T>) => R | PromiseLike<R>,
  options: LockOptions | undefined,
): Promise<Awaited<R>> {
  const model = descriptorOf(ctor);
  const normalized = normalizeId(model.name, id);
  const given = knownOptions('withLock', options, LOCK_OPTIONS);
  // before the lock is taken: a work that cannot be called would otherwise fail while holding it
  if (typeof work !== 'function') throw new ArgumentError(`${model.name}.withLock: work must be a function, got ${describeValue(work)}`);
  const locked = async (): Promise<Awaited<R>> => await work(await findOrFailOne(ctor, normalized));
  return afterSchema(model, () => withObjectLock(model, normalized, locked, given));
}
