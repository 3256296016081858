import { activeConnection } from '../redis/connection';
import { RedisRecordError } from '../errors/errors';
import { ModelDescriptor } from '../model/model-descriptor';
import { claimPattern } from '../keys/claim-keys';
import { demotedError } from '../redis/writable-master';

/** Escapes the characters SCAN's MATCH treats as a pattern (a prefix may contain them). */
export function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/**
 * Deletes every key of a model within one tenant: SCAN over `<base>:*` (the tenant is in the hash tag, so no
 * other tenant's or model's key matches), UNLINK in batches. Resolves to how many keys were removed.
 */
export async function dropScope(model: ModelDescriptor): Promise<number> {
  if (model.tenant === undefined) {
    throw new RedisRecordError(`${model.name}.drop() deletes a tenant's data: call it on ${model.name}.scope(tenant)`);
  }
  const { client, prefix } = activeConnection();
  // every shard's keys, and a sharded model's unique claims (tagged by value, outside the shard bases)
  const patterns = model.shardKeys(prefix).map((keys) => `${globEscape(keys.base)}:*`);
  if (model.shards > 1) patterns.push(claimPattern(globEscape(prefix), model.name, model.tenant));
  let removed = 0;
  for (const pattern of patterns) {
    for await (const batch of client.scanIterator({ MATCH: pattern, COUNT: 1000 })) {
      // a server made a replica since connect() refuses the UNLINK: a ConnectionError (writable-master.ts)
      if (batch.length > 0) removed += await client.unlink(batch).catch((error: unknown) => Promise.reject(demotedError(error)));
    }
  }
  return removed;
}
