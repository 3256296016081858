import { RedisCommands } from '../redis/redis-commands';
import { CLAIM_GRACE_MS } from '../store/unique-claims';
import { callScript } from '../store/entry-script';
import { claimUniqueScript } from '../store/lua/claim-unique';
import { StoredIndex } from '../schema/stored-definition';
import { heldClaimKey, heldFieldsOf } from './check-claims';
import { idsAcrossShards, ShardedId } from './ids-across-shards';
import { ModelScope, scopeOfId, shardScopes } from './model-scope';
import { raw, unlessWrongType } from './raw-commands';

/**
 * After reindex() built unique indexes added to a sharded model in each of its shards, claims their values across
 * the shards (docs/cluster.md, "Unique values across shards"): without the claims, an object of another shard
 * could be given a value an object already holds. Each value goes to the object first in id order across the
 * shards, as an unsharded model's index keeps it for the first in id order (ids-across-shards.ts); a later holder
 * keeps only its own shard's entry, and check() reports it as a `duplicateUnique`. A claim is taken with
 * claim-unique.lua when the value is free, already the object's, or claimed (10 s ago or more) by an object that
 * does not hold it; a claim standing otherwise is left (a writer between its claim and its write, or an object
 * holding the value: check() reports it). Resolves to how many values were claimed.
 */
export async function claimAddedUniques(scope: ModelScope, added: readonly StoredIndex[], batchSize: number): Promise<number> {
  const uniques = added.filter((index) => index.kind === 'unique');
  if (uniques.length === 0) return 0;
  const client = raw(scope.client);
  const fields = uniques.map(heldFieldsOf);
  const sequence = scope.definition.idStrategy === 'sequence';
  let claimed = 0;
  for await (const batch of idsAcrossShards(shardScopes(scope), sequence, batchSize)) {
    const values = await Promise.all(
      batch.map(({ id, shard }) => unlessWrongType(client.hmGet(shard.keys.object(id), fields.flat()), [] as Array<string | null>)),
    );
    // each claim key once, for the first object of the batch holding it (earlier batches' holders came first)
    const firstHolder = new Map<string, { object: ShardedId; index: StoredIndex }>();
    batch.forEach((object, i) => {
      let at = 0;
      uniques.forEach((index, u) => {
        const key = heldClaimKey(scope, index, values[i].slice(at, (at += fields[u].length)));
        if (key !== undefined && !firstHolder.has(key)) firstHolder.set(key, { object, index });
      });
    });
    const taken = await Promise.all([...firstHolder].map(([key, { object, index }]) => claimFor(scope, key, object.id, index)));
    claimed += taken.filter(Boolean).length;
  }
  return claimed;
}

/** Claims `key` for object `id`, replacing a stale claim once; whether the object holds the claim now. */
async function claimFor(scope: ModelScope, key: string, id: string, index: StoredIndex): Promise<boolean> {
  const client = scope.client as RedisCommands;
  const reply = await callScript(client, claimUniqueScript, { key, id, replace: '' });
  if ('claimed' in reply) return true;
  if (reply.age < CLAIM_GRACE_MS) return false;
  const holder = reply.standing.split(' ')[0];
  const object = scopeOfId(scope, holder).keys.object(holder);
  const held = await unlessWrongType(raw(scope.client).hmGet(object, heldFieldsOf(index)), [] as Array<string | null>);
  if (heldClaimKey(scope, index, held) === key) return false;
  return 'claimed' in (await callScript(client, claimUniqueScript, { key, id, replace: reply.standing }));
}
