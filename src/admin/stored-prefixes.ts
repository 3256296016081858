import { commandsFor } from '../redis/commands-for';

/** The suffix of a registry key: `<prefix>#models` (schema-registry.ts). */
const REGISTRY_SUFFIX = '#models';

/**
 * Every prefix that has model definitions stored on the server: the keys `<prefix>#models`, found with SCAN on
 * every master (a cluster's too), sorted. What to suggest when a prefix holds none: a mistyped `--prefix`, or
 * a model never used under it. `client` is the connection connect() returned, or a node-redis, ioredis or
 * iovalkey client.
 */
export async function storedPrefixes(client: unknown): Promise<string[]> {
  const found = new Set<string>();
  for await (const page of commandsFor(client).scanIterator({ MATCH: `*${REGISTRY_SUFFIX}`, COUNT: 1000 })) {
    for (const key of page) {
      const prefix = key.slice(0, -REGISTRY_SUFFIX.length);
      if (prefix.length > 0 && !/[{}]/.test(prefix)) found.add(prefix);
    }
  }
  return [...found].sort();
}
