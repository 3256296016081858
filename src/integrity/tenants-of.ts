import { isValidTenant } from '../keys/tenant-name';
import { StoredDefinition } from '../schema/stored-definition';
import { globEscape, raw } from './raw-commands';

/** A sharded model's hash tags end in `#<shard>.<salt>` (src/keys/shard-tags.ts). */
const SHARD_SUFFIX = /^#\d+\.\d+/;

/**
 * The tenant holding `key` when it is a key of the model in a tenant, `<prefix>:{<tenant>/<tag>}<rest>:...`
 * (docs/tenants.md), else undefined. The whole hash tag is checked: SCAN's pattern alone also matches keys
 * of other models whose stored values (in index key names) contain `/<tag>}`.
 */
function tenantOfKey(key: string, prefix: string, definition: StoredDefinition): string | undefined {
  const head = `${prefix}:{`;
  if (!key.startsWith(head)) return undefined;
  const slash = key.indexOf('/', head.length);
  const tenant = key.slice(head.length, slash);
  if (slash < 0 || !isValidTenant(tenant)) return undefined;
  const tag = definition.group ?? definition.name;
  let at = slash + 1;
  if (!key.startsWith(tag, at)) return undefined;
  at += tag.length;
  if ((definition.shards ?? 1) > 1) {
    const shard = SHARD_SUFFIX.exec(key.slice(at));
    if (!shard) return undefined;
    at += shard[0].length;
  }
  const rest = definition.group === null ? '}:' : `}:${definition.name}:`;
  return key.startsWith(rest, at) ? tenant : undefined;
}

/**
 * Every tenant holding data of the model: SCAN for any key of the model in a tenant (not only `all`, so that a
 * tenant whose `all` is damaged or gone is still found), each key's hash tag checked by tenantOfKey. With
 * `only`, the keys of that one tenant are scanned: [only] when it holds data, else [].
 */
export async function tenantsOf(
  client: unknown,
  prefix: string,
  definition: StoredDefinition,
  batchSize: number,
  only?: string,
): Promise<string[]> {
  const tag = definition.group ?? definition.name;
  const rest = definition.group === null ? '' : `:${definition.name}`;
  const sharded = (definition.shards ?? 1) > 1 ? '#*' : '';
  const tenantPattern = only === undefined ? '*' : globEscape(only);
  const pattern = `${globEscape(prefix)}:{${tenantPattern}/${globEscape(tag)}${sharded}}${globEscape(rest)}:*`;
  const tenants = new Set<string>();
  for await (const page of raw(client).scanIterator({ MATCH: pattern, COUNT: batchSize })) {
    for (const key of page) {
      const tenant = tenantOfKey(key, prefix, definition);
      if (tenant !== undefined) tenants.add(tenant);
    }
    if (only !== undefined && tenants.has(only)) return [only];
  }
  return [...tenants].sort();
}
