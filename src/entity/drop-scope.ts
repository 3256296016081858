import { activeConnection } from '../connection/connection';
import { RedisRecordError } from '../errors/errors';
import { ModelDescriptor } from '../metadata/model-descriptor';

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
  const pattern = `${globEscape(model.keys(prefix).base)}:*`;
  let removed = 0;
  for await (const batch of client.scanIterator({ MATCH: pattern, COUNT: 1000 })) {
    if (batch.length > 0) removed += await client.unlink(batch);
  }
  return removed;
}
