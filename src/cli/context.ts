import {
  checkScopeNames,
  countObjects,
  DEFAULT_PREFIX,
  findTenants,
  modelScope,
  ModelScope,
  readStoredDefinitions,
  StoredDefinition,
  storedPrefixes,
} from '../admin';
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
    /** Models whose stored definition cannot be read, with a sentence saying why: a command naming one fails, the others skip it. */
    readonly unreadable: Map<string, string>,
    private readonly warn: (line: string) => void,
  ) {}

  /**
   * `warn` prints a line on stderr as every message of the tool is printed: `redis-record: ` first, passwords
   * redacted (a model skipped because its stored definition cannot be read, a failure a command reports).
   */
  static async open(options: GlobalOptions, warn: (line: string) => void): Promise<CliContext> {
    try {
      checkScopeNames(options.prefix, options.tenant);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const client = options.cluster !== undefined ? await openClusterClient(options.cluster) : await openClient(options.url);
    try {
      const { definitions, unreadable } = await readStoredDefinitions(client.redis, options.prefix);
      if (definitions.size === 0 && unreadable.size === 0) throw new UsageError(await noModelsUnder(client, options.prefix));
      return new CliContext(client, options, definitions, unreadable, warn);
    } catch (error) {
      await client.close().catch(() => undefined);
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
    if (why !== undefined) throw new Error(why);
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
    for (const [, why] of [...this.unreadable].sort(([a], [b]) => a.localeCompare(b))) this.warn(`warning: ${why}; skipped`);
    return [...this.definitions.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  scope(definition: StoredDefinition, tenant: string | undefined): ModelScope {
    return modelScope(this.client.redis, this.prefix, definition, (name) => this.definitions.get(name), tenant);
  }

  /** The scopes to work on: the one of --tenant, or the model outside tenants and each tenant holding data. */
  async scopes(definition: StoredDefinition): Promise<ModelScope[]> {
    if (this.options.tenant !== undefined) return [this.scope(definition, this.options.tenant)];
    const tenants = await this.tenantsHolding(definition);
    return [undefined, ...tenants].map((tenant) => this.scope(definition, tenant));
  }

  /** The tenants holding a key of the model (tenantsOf): every one, or with `only`, that one if it does. */
  tenantsHolding(definition: StoredDefinition, only?: string): Promise<string[]> {
    return findTenants(this.client.redis, this.prefix, definition, { tenant: only, batchSize: 1000 });
  }

  /** A failure the command reports itself (an object `show` cannot find): its line on stderr, and exit code 2. */
  fail(line: string): number {
    this.warn(line);
    return EXIT_FAILURE;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** Live objects of a scope (expired ones excluded, as every read excludes them). */
export async function liveCount(scope: ModelScope): Promise<number> {
  return (await countObjects(scope)).live;
}

/**
 * Why a prefix with no stored model is refused, naming the prefixes that have some: a mistyped --prefix would
 * otherwise print an empty table and "ok".
 */
async function noModelsUnder(client: CliClient, prefix: string): Promise<string> {
  const prefixes = await storedPrefixes(client.redis);
  const found =
    prefixes.length > 0
      ? `prefixes with stored models: ${prefixes.join(', ')}`
      : 'no prefix on this server has one: a model is stored the first time the application uses it';
  return `no model is stored under prefix ${JSON.stringify(prefix)} (${found})`;
}

/** How a scope is named in output: the tenant, or '-' outside tenants. */
export function tenantLabel(scope: { readonly tenant: string | undefined }): string {
  return scope.tenant ?? '-';
}
