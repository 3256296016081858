import calculateSlot from 'cluster-key-slot';

/** Redis Cluster's slot count: a key's slot is CRC16 of its hash tag modulo this. */
export const CLUSTER_SLOTS = 16384;

/** The most shards a model may have (each is a hash tag of its own, so a slot range of at least 16 slots). */
export const MAX_SHARDS = 1024;

/**
 * The hash tag of shard `shard` of a model sharded `shards` ways: `<tag>#<shard>.<salt>`, with the smallest salt
 * that puts the tag's slot in the shard's share of the slot range ([shard, shard + 1) * 16384 / shards). A
 * cluster whose masters own equal contiguous slot ranges (what `redis-cli --cluster create` does) then holds an
 * equal number of shards on every master, instead of the uneven spread random slots would give.
 * Deterministic: the same model, tenant and shard count always give the same tags (they name stored data).
 */
export function shardTag(tag: string, shard: number, shards: number): string {
  const low = Math.floor((shard * CLUSTER_SLOTS) / shards);
  const high = Math.floor(((shard + 1) * CLUSTER_SLOTS) / shards);
  for (let salt = 0; ; salt++) {
    const candidate = `${tag}#${shard}.${salt}`;
    const slot = calculateSlot(candidate);
    if (slot >= low && slot < high) return candidate;
  }
}

/**
 * The shard an id lives in. Sequence ids are drawn so that id n is in shard (n - 1) mod shards (save.lua);
 * other ids (uuids) by the CRC16 of the id, which spreads them evenly. A well-formed id that no sequence draws
 * (`'abc'`, `'0'`) names no shard: it is looked for in the first, where no object has it, so that it reads as
 * missing, as on an unsharded model.
 */
export function shardOfId(id: string, shards: number, sequence: boolean): number {
  if (shards === 1) return 0;
  if (!sequence) return calculateSlot(id) % shards;
  const shard = (Number(id) - 1) % shards;
  return Number.isInteger(shard) && shard >= 0 ? shard : 0;
}
