import { activeConnection } from '../redis/connection';
import { ArgumentError, QueryError } from '../errors/errors';
import { asRejection } from '../errors/as-rejection';
import { firstGiven } from '../errors/no-arguments';
import { afterSchema, schemaPending } from '../schema/first-use';
import { describeValue } from '../util/describe-value';
import { failingIterator } from '../util/failing-iterator';
import { activeStore } from './active-store';
import { descriptorOf } from '../model/model-registry';
import { QueryRunner } from '../query/query-runner';
import { rankOf } from '../query/rank-query';
import type { ModelDescriptor } from '../model/model-descriptor';
import type { MemberKey } from '../query/plan-query';
import type { FindIdsOptions, FindOneOptions, FindOptions, IterateOptions, Where } from '../types/where-types';
import type { EntityClass, Persisted } from '../types/entity-types';
import type { StatefulEntity } from './entity-state';
import { materializeAll } from './materialize';
import { queryOptions } from '../query/query-options';
import { checkInclude, includeParents } from './include';

function runnerOf(ctor: Function) {
  const model = descriptorOf(ctor);
  return { model, runner: new QueryRunner(model, activeConnection()) };
}

/**
 * findBy(): the matches, read and built in one script call per shard, then their parents with `include`.
 * `within`: only the members of a many-to-many side (the relation handles' findBy).
 */
export async function findBy<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  where: Where<T> | undefined,
  given: FindOptions<T> | undefined,
  within?: MemberKey,
): Promise<Array<Persisted<T>>> {
  const options = queryOptions('findBy', given);
  const { model, runner } = runnerOf(ctor);
  if (options.include !== undefined) checkInclude(model, options.include);
  const found = await runner.load(runner.plan(where, options.orderBy, within), runner.page(options));
  const entities = (await materializeAll(ctor, model, found)) as Array<Persisted<T>>;
  if (options.include && options.include.length > 0) await includeParents(model, entities, options.include);
  return entities;
}

/** findIds(): the matches' ids alone. */
export async function findIds<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  where: Where<T> | undefined,
  given: FindIdsOptions<T> | undefined,
): Promise<string[]> {
  const options = queryOptions('findIds', given);
  const { runner } = runnerOf(ctor);
  return runner.ids(runner.plan(where, options.orderBy), runner.page(options));
}

/** Model.rank(): the object's position in an ordered index (query/rank-query.ts). */
export function rankEntity(model: ModelDescriptor, id: unknown, options: unknown): Promise<number | null> {
  return rankOf(model, activeConnection(), id, options);
}

/** The number of matches, counted inside Redis. */
export async function countWhere<T extends StatefulEntity>(ctor: EntityClass<T>, where: Where<T>): Promise<number> {
  const { runner } = runnerOf(ctor);
  return runner.count(runner.plan(where));
}

/**
 * count(): the number of objects (ZCARD of `all`), or of those matching `where`. It takes no options: a second
 * argument (`{ limit }`, say, from a caller without types) is an ArgumentError rather than a count of something
 * else than what was asked. Not async: a bare count is then the ZCARD's promise itself; errors still come as
 * rejections.
 */
export function countEntities<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  where: Where<T> | undefined,
  given: ArrayLike<unknown>,
): Promise<number> {
  const extra = firstGiven(given, 1);
  return asRejection(() => {
    const model = descriptorOf(ctor);
    if (extra !== undefined) {
      throw new ArgumentError(`${model.name}.count takes a where alone, it has no options; got ${describeValue(extra)}`);
    }
    return afterSchema(model, () => (where === undefined ? activeStore(model).count() : countWhere(ctor, where)));
  });
}

/** findOneBy(): the first match, or null. */
export async function findOneBy<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  where: Where<T>,
  options: FindOneOptions<T> | undefined,
): Promise<Persisted<T> | null> {
  const [first] = await afterSchema(descriptorOf(ctor), () => findBy(ctor, where, { ...queryOptions('findOneBy', options), limit: 1 }));
  return first ?? null;
}

/**
 * iterate(): every match after the model's schema is known. Bad input (a where, options, a class that is no
 * model) fails the first next(), never the call.
 */
export function iterateEntities<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  where: Where<T> | undefined,
  options: IterateOptions | undefined,
): AsyncGenerator<Persisted<T>> {
  let pending: Promise<void> | undefined;
  try {
    pending = schemaPending(descriptorOf(ctor));
  } catch (error) {
    return failingIterator(error);
  }
  if (!pending) return iterate(ctor, where, options);
  return (async function* () {
    await pending;
    yield* iterate(ctor, where, options);
  })();
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
