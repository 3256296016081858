import { DEFAULT_PREFIX } from '../connect/connect';
import { assertValidPrefix } from '../keys/prefix-format';
import { modelScope, ModelScope, shardScopes } from '../integrity/model-scope';
import { tenantsOf } from '../integrity/tenants-of';
import { isValidTenant } from '../keys/tenant-name';
import { readDefinitions, unreadableDefinition } from '../schema/schema-registry';
import { StoredDefinition } from '../schema/stored-definition';
import { CliClient, openClient, openClusterClient } from './connect-cli';
import { EXIT_FAILURE, UsageError } from './errors';

export const DEFAULT_URL = 'redis://127.0.0.1:6379';
export { DEFAULT_PREFIX };

/** The options every command takes (see main.ts). */
export interface GlobalOptions {
  readonly url: string;
  /** `host:port[,host:port...]`: a Redis Cluster to discover from these nodes instead of `url`. */
  readonly cluster?: string;
  readonly prefix: string;
  readonly json: boolean;
  readonly tenant?: string;
}

/**
 * What a command works with: the client, the model definitions stored under the prefix (the application's
 * classes are not needed: docs/cli.md), and the scopes (model outside tenants, each tenant) to work on.
 */
export class CliContext {
  private constructor(
    readonly client: CliClient,
    readonly options: GlobalOptions,
    readonly definitions: Map<string, StoredDefinition>,
    /** Models whose stored definition cannot be read, with why: a command naming one fails, the others skip it. */
    readonly unreadable: Map<string, string>,
    private readonly warn: (line: string) => void,
  ) {}

  /**
   * `warn` prints a line on stderr as every message of the tool is printed: `redis-record: ` first, passwords
   * redacted (a model skipped because its stored definition cannot be read, a failure a command reports).
   */
  static async open(options: GlobalOptions, warn: (line: string) => void): Promise<CliContext> {
    try {
      assertValidPrefix(options.prefix);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (options.tenant !== undefined && !isValidTenant(options.tenant)) {
      throw new UsageError(`invalid tenant ${JSON.stringify(options.tenant)}: 1 to 64 characters of A-Z a-z 0-9 _ -`);
    }
    const client = options.cluster !== undefined ? await openClusterClient(options.cluster) : await openClient(options.url);
    try {
      const { definitions, unreadable } = await readDefinitions(client, options.prefix);
      return new CliContext(client, options, definitions, unreadable, warn);
    } catch (error) {
      await client.transport.close().catch(() => undefined);
      throw error;
    }
  }

  get prefix(): string {
    return this.options.prefix;
  }

  get json(): boolean {
    return this.options.json;
  }

  /** The stored definition of `name`; a usage error naming the models there are when it is unknown. */
  definition(name: string): StoredDefinition {
    const definition = this.definitions.get(name);
    const why = this.unreadable.get(name);
    if (why !== undefined) throw new Error(unreadableDefinition(name, why));
    if (!definition) {
      const known = [...this.definitions.keys()].sort();
      const list = known.length > 0 ? `models: ${known.join(', ')}` : 'no model is stored under this prefix';
      throw new UsageError(`unknown model ${JSON.stringify(name)} under prefix ${JSON.stringify(this.prefix)} (${list})`);
    }
    return definition;
  }

  /** The named model, or every stored model (sorted by name) when `name` is undefined. */
  modelsOrAll(name: string | undefined): StoredDefinition[] {
    if (name !== undefined) return [this.definition(name)];
    for (const [unread, why] of [...this.unreadable].sort(([a], [b]) => a.localeCompare(b)))
      this.warn(`warning: ${unreadableDefinition(unread, why)}; skipped`);
    return [...this.definitions.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  scope(definition: StoredDefinition, tenant: string | undefined): ModelScope {
    return modelScope(this.client, this.prefix, definition, (name) => this.definitions.get(name), tenant);
  }

  /** The scopes to work on: the one of --tenant, or the model outside tenants and each tenant holding data. */
  async scopes(definition: StoredDefinition): Promise<ModelScope[]> {
    if (this.options.tenant !== undefined) return [this.scope(definition, this.options.tenant)];
    const tenants = await this.tenantsHolding(definition);
    return [undefined, ...tenants].map((tenant) => this.scope(definition, tenant));
  }

  /** The tenants holding a key of the model (tenantsOf): every one, or with `only`, that one if it does. */
  tenantsHolding(definition: StoredDefinition, only?: string): Promise<string[]> {
    return tenantsOf(this.client, this.prefix, definition, 1000, only);
  }

  /** A failure the command reports itself (an object `show` cannot find): its line on stderr, and exit code 2. */
  fail(line: string): number {
    this.warn(line);
    return EXIT_FAILURE;
  }

  async close(): Promise<void> {
    await this.client.transport.close();
  }
}

/** Live objects of a scope (count.lua's rule: ZCARD all minus objects whose time has come). */
export async function liveCount(client: CliClient, scope: ModelScope): Promise<number> {
  let live = 0;
  for (const shard of shardScopes(scope)) {
    const [all, due] = await Promise.all([client.zCard(shard.keys.all), client.zCount(shard.keys.expiring, '-inf', Date.now())]);
    live += Number(all) - Number(due);
  }
  return live;
}

/** How a scope is named in output: the tenant, or '-' outside tenants. */
export function tenantLabel(scope: { readonly tenant: string | undefined }): string {
  return scope.tenant ?? '-';
}
