import { Connection } from '../redis/connection';
import { EncodedFields } from '../mapper/encoded-fields';
import { ModelDescriptor } from '../model/model-descriptor';
import { ModelKeys } from '../keys/model-keys';
import { callScript } from '../store/entry-script';
import { queryScript, StoredObject, storedObjects } from '../store/lua/query';
import { mergePages, shardOrder } from './merge-shards';
import { MemberKey, pageRequest, planQuery } from './plan-query';
import { PageRequest, QueryPlan } from '../store/query-plan';
import { loadWindow, plainLoadWindow, plainWindow, readWindow } from './window-read';
import { countByScript } from '../store/lua/count-by';
import { facetAttribute, facetKey, planFacet } from './facets';
import { checkKeysetOrder, decodeCursor, encodeCursor, keysetPage } from './keyset';

export type { StoredObject } from '../store/lua/query';

/** A planned query: one plan per shard (index keys differ between shards), one for a model that is not sharded. */
export interface PlannedQuery {
  readonly shards: readonly QueryPlan[];
}

/**
 * Runs planned queries: each is one query.lua call, so one round trip (a where one index window answers is
 * read with plain commands instead, see window-read.ts). On a sharded model, every shard runs
 * the query at once (in parallel on a cluster) and the pages are merged in the query's order: each shard is asked
 * for its first offset + limit matches, then the merged list is cut to the page; counts are summed.
 */
export class QueryRunner {
  constructor(
    private readonly model: ModelDescriptor,
    private readonly connection: Connection,
  ) {}

  private get keys(): readonly ModelKeys[] {
    return this.model.shardKeys(this.connection.prefix);
  }

  /** `within`: the query is restricted to the members of a many-to-many side (a model in no relation is never sharded). */
  plan(where: unknown, orderBy?: unknown, within?: MemberKey): PlannedQuery {
    return { shards: this.keys.map((keys) => planQuery(this.model, keys, where, orderBy, within)) };
  }

  page(options: { offset?: unknown; limit?: unknown }): PageRequest {
    return pageRequest(this.model, options);
  }

  async ids(planned: PlannedQuery, page: PageRequest): Promise<string[]> {
    if (planned.shards.length === 1 || planned.shards[0].order.kind === 'id') {
      if (planned.shards.length === 1) return (await this.run(0, 'ids', planned.shards[0], page)) as string[];
      const pages = await Promise.all(
        planned.shards.map(async (plan, shard) =>
          ((await this.run(shard, 'ids', plan, shardPage(page))) as string[]).map((id) => ({ id, fields: NO_FIELDS })),
        ),
      );
      return this.merge(planned, pages, page).map((match) => match.id);
    }
    // ordered by an attribute: the shards' matches are merged by their stored values
    return (await this.load(planned, page)).map((object) => object.id);
  }

  async load(planned: PlannedQuery, page: PageRequest): Promise<StoredObject[]> {
    if (planned.shards.length === 1) return this.loadShard(0, planned.shards[0], page);
    const pages = await Promise.all(planned.shards.map((plan, shard) => this.loadShard(shard, plan, shardPage(page))));
    return this.merge(planned, pages, page);
  }

  async count(planned: PlannedQuery): Promise<number> {
    const counts = await Promise.all(
      planned.shards.map(async (plan, shard) => Number(await this.run(shard, 'count', plan, { offset: 0, limit: -1 }))),
    );
    return counts.reduce((sum, n) => sum + n, 0);
  }

  /**
   * A keyset page (findPage): up to `limit` matches after the cursor's object, in the plan's order, and the
   * cursor of the page after them (null when no match follows). Each shard is asked for limit + 1 matches after
   * the same keyset; the merged order is cut there.
   */
  async keysetLoad(planned: PlannedQuery, cursor: unknown, limit: number): Promise<{ found: StoredObject[]; next: string | null }> {
    const order = planned.shards[0].order;
    checkKeysetOrder(this.model, order);
    const keyset = cursor === undefined ? undefined : decodeCursor(this.model, order, cursor);
    const pages = await Promise.all(
      planned.shards.map((plan, shard) => {
        const page = keysetPage(plan, keyset, limit + 1);
        return page ? this.loadShard(shard, plan, page) : [];
      }),
    );
    const merged = pages.length === 1 ? pages[0] : this.merge(planned, pages, { offset: 0, limit: limit + 1 });
    const found = merged.slice(0, limit);
    const next = merged.length > limit && found.length > 0 ? encodeCursor(this.model, order, found[found.length - 1]) : null;
    return { found, next };
  }

  /** countBy(): each value's number of matches, one count-by.lua call per shard, summed. */
  async countBy(name: unknown, where: unknown): Promise<Record<string, number>> {
    const attribute = facetAttribute(this.model, name);
    const plans = this.keys.map((keys) => ({ keys, ...planFacet(this.model, keys, attribute, where) }));
    const counts = await Promise.all(plans.map((plan) => callScript(this.connection.client, countByScript, plan)));
    const summed = new Map<string, number>();
    for (const shard of counts) {
      for (const [stored, n] of shard) {
        const key = facetKey(attribute, stored);
        summed.set(key, (summed.get(key) ?? 0) + n);
      }
    }
    // fromEntries defines each key as an own property: a value '__proto__' is counted like any other
    return Object.fromEntries(summed);
  }

  private merge(planned: PlannedQuery, pages: ReadonlyArray<readonly StoredObject[]>, page: PageRequest): StoredObject[] {
    const compare = shardOrder(planned.shards[0].order, this.model.idStrategy === 'sequence');
    return mergePages(pages, compare, page.offset, page.limit);
  }

  private async loadShard(shard: number, plan: QueryPlan, page: PageRequest): Promise<StoredObject[]> {
    const client = this.connection.client;
    const window = plainLoadWindow(this.model, this.keys[shard], plan, page, client);
    const rows = window && (await loadWindow(client, this.keys[shard], window));
    return rows ? storedObjects(plan.loadFields, rows) : ((await this.run(shard, 'load', plan, page)) as StoredObject[]);
  }

  private async run(shard: number, mode: 'ids' | 'load' | 'count', plan: QueryPlan, page: PageRequest): Promise<unknown> {
    const window = mode === 'load' ? undefined : plainWindow(this.model, plan, mode, page);
    if (window) {
      const read = await readWindow(this.connection.client, this.keys[shard], window, page);
      // undefined: an object of the model is due to expire; query.lua sweeps it first
      if (read !== undefined) return read;
    }
    return this.runScript(shard, mode, plan, page);
  }

  private runScript(shard: number, mode: 'ids' | 'load' | 'count', plan: QueryPlan, page: PageRequest): Promise<unknown> {
    const numericIds = this.model.idStrategy === 'sequence';
    return callScript(this.connection.client, queryScript, { keys: this.keys[shard], mode, numericIds, plan, page });
  }
}

const NO_FIELDS: EncodedFields = new Map();

/** What each shard must return for the merged page: everything up to the page's end. */
function shardPage(page: PageRequest): PageRequest {
  return { ...page, offset: 0, limit: page.limit < 0 ? -1 : page.offset + page.limit };
}
