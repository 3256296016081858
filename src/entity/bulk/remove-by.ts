import { activeConnection } from '../../redis/connection';
import { ArgumentError } from '../../errors/errors';
import { knownOptions } from '../../errors/options-argument';
import { descriptorOf } from '../../model/model-registry';
import { QueryRunner } from '../../query/query-runner';
import { afterSchema } from '../../schema/first-use';
import type { RemoveByOptions } from '../../types/bulk-types';
import type { EntityClass } from '../../types/entity-types';
import type { Where } from '../../types/where-types';
import { describeValue } from '../../util/describe-value';
import { isPlainObject } from '../../util/plain-object';
import type { StatefulEntity } from '../entity-state';
import { REMOVE_BY_OPTIONS } from '../option-names';
import { MAX_CHUNK_SIZE } from './bulk-options';
import { removeMany } from './remove-many';

/** Ids found and removed per batch, unless told otherwise. */
const REMOVE_BY_BATCH = 500;

/**
 * removeBy(): removes every object matching `where`, in batches of `batchSize` ids in id order (findIds's plan,
 * resuming after the last id seen), each batch by removeMany: every object atomically with its index entries,
 * its uniques and its relations' onDelete rules, with the remove lifecycle (hooks, replica waits). Resolves to
 * the number removed. A batch with a failed item (a 'restrict' rule, a hook that threw, a replica shortfall)
 * ends the call with that item's error once the batch is done: what was removed stays removed.
 */
export async function removeBy<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  where: Where<T> | undefined,
  options: RemoveByOptions | undefined,
): Promise<number> {
  const model = descriptorOf(ctor);
  const settings = knownOptions('removeBy', options, REMOVE_BY_OPTIONS);
  const all = settings.all;
  if (all !== undefined && typeof all !== 'boolean') {
    throw new ArgumentError(`${model.name}.removeBy: all must be true or false, got ${describeValue(all)}`);
  }
  const batchSize = settings.batchSize ?? REMOVE_BY_BATCH;
  if (typeof batchSize !== 'number' || !Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_CHUNK_SIZE) {
    throw new ArgumentError(
      `${model.name}.removeBy: batchSize must be a whole number from 1 to ${MAX_CHUNK_SIZE}, got ${describeValue(batchSize)}`,
    );
  }
  if (!isPlainObject(where)) {
    throw new ArgumentError(
      `${model.name}.removeBy takes a where (an object), got ${describeValue(where)}; removeBy({}, { all: true }) removes every object`,
    );
  }
  const empty = Reflect.ownKeys(where).length === 0;
  if (empty && all !== true) {
    throw new ArgumentError(`${model.name}.removeBy: the where is empty; removeBy({}, { all: true }) removes every object`);
  }
  if (!empty && all === true) {
    throw new ArgumentError(`${model.name}.removeBy: all: true takes an empty where ({}), to say every object`);
  }
  return afterSchema(model, async () => {
    const runner = new QueryRunner(model, activeConnection());
    const plan = runner.plan(where); // a where no index can answer: QueryError before anything is removed
    const page = runner.page({ offset: 0, limit: batchSize });
    let removed = 0;
    let afterId: string | undefined;
    for (;;) {
      const ids = await runner.ids(plan, { ...page, afterId });
      if (ids.length === 0) return removed;
      const result = await removeMany(ctor, ids);
      removed += result.removed.length;
      if (result.failed.length > 0) throw result.failed[0].error;
      if (ids.length < batchSize) return removed;
      afterId = ids[ids.length - 1];
    }
  });
}
