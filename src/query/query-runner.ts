import { Connection } from '../connection/connection';
import { fieldsFromReply } from '../mapper/attribute-encoder';
import { EncodedFields } from '../mapper/encoded-fields';
import { ModelDescriptor } from '../metadata/model-descriptor';
import { scripts } from '../scripts/scripts';
import { pageRequest, planQuery } from './plan-query';
import { PageRequest, planArguments, QueryPlan } from './query-plan';

export interface StoredObject {
  readonly id: string;
  readonly fields: EncodedFields;
}

/** Runs planned queries: each is one query.lua call, so one round trip. */
export class QueryRunner {
  constructor(
    private readonly model: ModelDescriptor,
    private readonly connection: Connection,
  ) {}

  private get keys() {
    return this.model.keys(this.connection.prefix);
  }

  plan(where: unknown, orderBy?: unknown): QueryPlan {
    return planQuery(this.model, this.keys, where, orderBy);
  }

  page(options: { offset?: unknown; limit?: unknown }): PageRequest {
    return pageRequest(this.model, options);
  }

  async ids(plan: QueryPlan, page: PageRequest): Promise<string[]> {
    return (await this.run('ids', plan, page)) as string[];
  }

  async load(plan: QueryPlan, page: PageRequest): Promise<StoredObject[]> {
    const reply = (await this.run('load', plan, page)) as Array<string | string[]>;
    const objects: StoredObject[] = [];
    for (let i = 0; i + 1 < reply.length; i += 2) {
      objects.push({ id: reply[i] as string, fields: fieldsFromReply(reply[i + 1]) });
    }
    return objects;
  }

  async count(plan: QueryPlan): Promise<number> {
    return Number(await this.run('count', plan, { offset: 0, limit: -1 }));
  }

  private run(mode: 'ids' | 'load' | 'count', plan: QueryPlan, page: PageRequest): Promise<unknown> {
    const keys = this.keys;
    const numericIds = this.model.idStrategy === 'sequence';
    return scripts.query().run(this.connection.client, [keys.all, keys.base], planArguments(mode, numericIds, plan, page));
  }
}
