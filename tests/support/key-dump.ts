import type { RawClient } from './test-redis';

/**
 * Every key of model `model` under `prefix` (its hash tag `{<model>}`), with its DUMP: equal before and after a
 * refused write shows the write changed nothing, TTLs and index entries included.
 */
export async function modelKeyDump(raw: RawClient, prefix: string, model: string): Promise<Record<string, unknown>> {
  const keys = (await raw.keys(`${prefix}:{${model}}*`)).sort();
  const dump: Record<string, unknown> = {};
  for (const key of keys) dump[key] = await raw.dump(key);
  return dump;
}
