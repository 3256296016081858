import { activeConnection } from '../redis/connection';
import { QueryError } from '../errors/errors';
import { descriptorOf } from '../model/model-registry';
import { QueryRunner } from '../query/query-runner';
import type { FindIdsOptions, FindOptions, IterateOptions, Where } from '../types/where-types';
import type { EntityClass, Persisted } from '../types/entity-types';
import type { StatefulEntity } from './entity-state';
import { materializeAll } from './materialize';
import { queryOptions } from '../query/query-options';
import { checkInclude, includeParents } from './include';

function runnerOf(ctor: Function) {
  const model = descriptorOf(ctor);
  return { model, runner: new QueryRunner(model, activeConnection()) };
}

export async function findBy<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  where: Where<T> | undefined,
  given: FindOptions<T> | undefined,
): Promise<Array<Persisted<T>>> {
  const options = queryOptions('findBy', given);
  const { model, runner } = runnerOf(ctor);
  if (options.include !== undefined) checkInclude(model, options.include);
  const found = await runner.load(runner.plan(where, options.orderBy), runner.page(options));
  const entities = (await materializeAll(ctor, model, found)) as Array<Persisted<T>>;
  if (options.include && options.include.length > 0) await includeParents(model, entities, options.include);
  return entities;
}

export async function findIds<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  where: Where<T> | undefined,
  given: FindIdsOptions<T> | undefined,
): Promise<string[]> {
  const options = queryOptions('findIds', given);
  const { runner } = runnerOf(ctor);
  return runner.ids(runner.plan(where, options.orderBy), runner.page(options));
}

export async function countWhere<T extends StatefulEntity>(ctor: EntityClass<T>, where: Where<T>): Promise<number> {
  const { runner } = runnerOf(ctor);
  return runner.count(runner.plan(where));
}

/** Every match in id order, `batchSize` per round trip, resuming after the last id seen (not by offset). */
export async function* iterate<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  where: Where<T> | undefined,
  given: IterateOptions | undefined,
): AsyncGenerator<Persisted<T>> {
  const { model, runner } = runnerOf(ctor);
  const batchSize = queryOptions('iterate', given).batchSize ?? 500;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new QueryError(`${model.name}: batchSize must be a whole number >= 1`);
  const plan = runner.plan(where);
  let afterId: string | undefined;
  for (;;) {
    const batch = await runner.load(plan, { offset: 0, limit: batchSize, afterId });
    for (const entity of await materializeAll(ctor, model, batch)) yield entity!;
    if (batch.length < batchSize) return;
    afterId = batch[batch.length - 1].id;
  }
}
