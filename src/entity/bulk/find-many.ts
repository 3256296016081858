import { describeValue } from '../../util/describe-value';
import { ArgumentError } from '../../errors/errors';
import { normalizeId } from '../../keys/id-format';
import { EncodedFields } from '../../mapper/encoded-fields';
import { ObjectStore } from '../../store/object-store';
import { descriptorOf } from '../../model/model-registry';
import { activeStore } from '../active-store';
import { afterSchema } from '../../schema/first-use';
import type { FindManyOptions } from '../../types/bulk-types';
import type { EntityClass, Persisted } from '../../types/entity-types';
import type { StatefulEntity } from '../entity-state';
import { chunkSizeOption, READS_IN_FLIGHT } from './bulk-options';
import { inRanges } from './bulk-windows';
import { materializeAll } from '../materialize';
import { knownOptions } from '../../errors/options-argument';
import { FIND_MANY_OPTIONS } from '../option-names';

/**
 * The objects with these ids, in the same order, null where missing: every id in one transaction (read at one
 * instant), or with `chunkSize`, `chunkSize` ids per transaction, READS_IN_FLIGHT of them awaiting Redis at
 * once. Every id and the option are checked before anything is sent.
 */
export async function findMany<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  ids: ReadonlyArray<string | number>,
  options?: FindManyOptions,
): Promise<Array<Persisted<T> | null>> {
  if (!Array.isArray(ids)) throw new ArgumentError(`findMany: expected an array of ids, got ${describeValue(ids)}`);
  const model = descriptorOf(ctor);
  const chunkSize = findManyChunkSize('findMany', options);
  // by position, so that a hole in a sparse array is an invalid id (undefined) like any other
  const normalized = new Array<string>(ids.length);
  for (let at = 0; at < ids.length; at++) normalized[at] = normalizeId(model.name, ids[at]);
  const store = activeStore(model);
  const loaded = await afterSchema(model, () =>
    normalized.length <= chunkSize ? store.loadMany(normalized) : inChunks(store, normalized, chunkSize),
  );
  return materializeAll(
    ctor,
    model,
    loaded.map((fields, i) => (fields ? { id: normalized[i], fields } : null)),
  );
}

/**
 * The chunkSize of findMany's options, checked (knownOptions, chunkSizeOption): no chunks (Infinity) when none
 * is given. `operation` names the call in the errors: findMany, or a call that reads through it (a
 * many-to-many's list), checking them before it sends anything.
 */
export function findManyChunkSize(operation: string, options: FindManyOptions | undefined): number {
  return chunkSizeOption(operation, knownOptions(operation, options, FIND_MANY_OPTIONS).chunkSize, Number.POSITIVE_INFINITY);
}

/** loadMany of `ids` in transactions of `chunkSize` ids, READS_IN_FLIGHT at once; the answers in the ids' order. */
async function inChunks(store: ObjectStore, ids: readonly string[], chunkSize: number): Promise<Array<EncodedFields | null>> {
  const loaded = new Array<EncodedFields | null>(ids.length);
  await inRanges(0, ids.length, chunkSize, READS_IN_FLIGHT, async (from, to) => {
    const fields = await store.loadMany(ids.slice(from, to));
    for (let i = 0; i < fields.length; i++) loaded[from + i] = fields[i];
  });
  return loaded;
}
