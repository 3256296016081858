// The keys a prefix holds, for the examples and the demo: they refuse a prefix already in use, and delete
// what they wrote afterwards. redis-record keeps its data under `<prefix>:` and, beside it, the prefix's
// registry of model definitions, `<prefix>#models` (registryKey, docs/keys.md).
import { createClient } from 'redis';
import { registryKey } from '../../src/admin';

export const rawClient = (url: string) => createClient({ url });
export type RawClient = ReturnType<typeof rawClient>;

/** The data keys under `<prefix>:` (SCAN, never KEYS). */
export async function keysUnder(raw: RawClient, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of raw.scanIterator({ MATCH: `${prefix}:*`, COUNT: 100 })) keys.push(...batch);
  return keys.sort();
}

/** Why `prefix` cannot be used (it holds keys already), or undefined when it holds none. */
export async function prefixInUse(raw: RawClient, prefix: string): Promise<string | undefined> {
  if ((await keysUnder(raw, prefix)).length > 0) return `keys already exist under "${prefix}:"`;
  if ((await raw.exists(registryKey(prefix))) > 0) return `"${registryKey(prefix)}" already exists`;
  return undefined;
}

/**
 * Deletes every key of `prefix`, data and registry, once redis-record is disconnected; says what went, as the
 * examples print it.
 */
export async function deletePrefix(raw: RawClient, prefix: string): Promise<string> {
  const keys = await keysUnder(raw, prefix);
  for (let i = 0; i < keys.length; i += 500) await raw.del(keys.slice(i, i + 500));
  const registry = await raw.del(registryKey(prefix));
  return `deleted ${keys.length} keys under "${prefix}:"${registry > 0 ? ` and "${registryKey(prefix)}"` : ''}`;
}
