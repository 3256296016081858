import { activeConnection } from '../redis/connection';
import { QueryError } from '../errors/errors';
import { descriptorOf } from '../model/model-registry';
import { QueryRunner } from '../query/query-runner';
import { queryOptions } from '../query/query-options';
import type { FindPageOptions, Page, Where } from '../types/where-types';
import type { EntityClass, Persisted } from '../types/entity-types';
import type { StatefulEntity } from './entity-state';
import { materializeAll } from './materialize';
import { checkInclude, includeParents } from './include';

/** findPage(): one keyset page, read in one script call per shard, and the cursor of the page after it. */
export async function findPage<T extends object>(
  ctor: EntityClass<T>,
  where: Where<T> | undefined,
  given: FindPageOptions<T> | undefined,
): Promise<Page<T>> {
  const model = descriptorOf(ctor);
  const options = queryOptions('findPage', given);
  const limit: unknown = options?.limit;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1) {
    throw new QueryError(`${model.name}.findPage: limit must be a whole number >= 1`);
  }
  if (options.include !== undefined) checkInclude(model, options.include);
  const runner = new QueryRunner(model, activeConnection());
  // `after` given as undefined is the first page; any other value must be a cursor (null included)
  const { found, next } = await runner.keysetLoad(runner.plan(where, options.orderBy), options.after, limit);
  // model classes are entities: the public signature names `object` so that it exposes no internal class
  const items = (await materializeAll(ctor as unknown as EntityClass<StatefulEntity>, model, found)) as unknown as Array<Persisted<T>>;
  if (options.include && options.include.length > 0) await includeParents(model, items, options.include);
  return { items, next };
}

/** countBy(): how many matches hold each value of an indexed attribute, counted inside Redis. */
export function countBy<T extends object>(
  ctor: EntityClass<T>,
  attribute: unknown,
  where: Where<T> | undefined,
): Promise<Record<string, number>> {
  return new QueryRunner(descriptorOf(ctor), activeConnection()).countBy(attribute, where);
}
