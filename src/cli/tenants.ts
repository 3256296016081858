import { StoredDefinition } from '../schema/stored-definition';
import { CliClient } from './connect-cli';

const TENANT = /^[A-Za-z0-9_-]{1,64}$/;

export function isValidTenant(tenant: string): boolean {
  return TENANT.test(tenant);
}

const globEscape = (text: string) => text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);

/**
 * Every tenant holding data of the model: SCAN for any key `<prefix>:{<tenant>/<tag>}...:*` (the tenant is in
 * the hash tag, docs/tenants.md), so that a tenant whose `all` set is damaged or gone is still checked.
 */
export async function tenantsOf(client: CliClient, prefix: string, definition: StoredDefinition): Promise<string[]> {
  const tag = definition.group ?? definition.name;
  const rest = definition.group === null ? '' : `:${definition.name}`;
  const sharded = (definition.shards ?? 1) > 1 ? '#*' : ''; // a sharded model's tags: `<Model>#<shard>.<salt>`
  const pattern = `${globEscape(prefix)}:{*/${globEscape(tag)}${sharded}}${globEscape(rest)}:*`;
  const tenants = new Set<string>();
  for await (const page of client.scanIterator({ MATCH: pattern, COUNT: 1000 })) {
    for (const key of page) {
      const start = prefix.length + 2;
      const tenant = key.slice(start, key.indexOf('/', start));
      if (isValidTenant(tenant)) tenants.add(tenant);
    }
  }
  return [...tenants].sort();
}
