import { DEFAULT_BATCH_SIZE } from '../integrity/check-model';
import { tenantsOf } from '../integrity/tenants-of';
import type { StoredDefinition } from '../schema/stored-definition';

/** Options of findTenants. */
export interface FindTenantsOptions {
  /** Look for this one tenant only: resolves to `[tenant]` when it holds a key of the model, else `[]`. */
  readonly tenant?: string;
  /** The SCAN page size hint (default 500). */
  readonly batchSize?: number;
}

/**
 * The tenants holding data of the model under `prefix` (docs/tenants.md), sorted: any key of the model in a
 * tenant counts, not only its `all`, so a tenant whose `all` is damaged or gone is found too. SCAN on every
 * master. With the model outside tenants, these are the scopes check, repair and reindex cover.
 */
export function findTenants(
  client: unknown,
  prefix: string,
  definition: StoredDefinition,
  options: FindTenantsOptions = {},
): Promise<string[]> {
  return tenantsOf(client, prefix, definition, options.batchSize ?? DEFAULT_BATCH_SIZE, options.tenant);
}
