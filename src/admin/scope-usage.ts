import { globEscape } from '../integrity/raw-commands';
import { shardScopes, type ModelScope } from '../integrity/model-scope';
import type { RedisCommands } from '../redis/redis-commands';
import { indexName } from '../schema/stored-definition';
import { countObjects } from './object-counts';
import { kindOfKey } from './key-kinds';

/** Objects whose hash measureScope measures with MEMORY USAGE, per shard; the total is their average times the count. */
export const MEMORY_SAMPLE_SIZE = 100;

/** The keys, entries and memory of one index in a scope (measureScope). */
export interface IndexUsage {
  /** The index's name, `<kind>:<attribute>[@<scope>][/ci]`. */
  readonly index: string;
  /** Its keys. */
  readonly keys: number;
  /** Members (sets, sorted sets) or fields (unique hashes), summed over its keys. */
  readonly entries: number;
  /** MEMORY USAGE summed over its keys. */
  readonly bytes: number;
}

/** What a scope holds and the memory it takes (measureScope). */
export interface ScopeUsage {
  /** Live objects. */
  readonly objects: number;
  /** Estimated: the sampled objects' MEMORY USAGE, averaged, times `objects`. */
  readonly objectBytes: number;
  /** Objects whose memory was measured. */
  readonly sampled: number;
  /** `all`, `exp`, `seq`, membership sets, memos (sampled like objects) and keys of no declared index. */
  readonly otherBytes: number;
  /** Each index of the stored definition, in its order. */
  readonly indexes: IndexUsage[];
}

async function memoryOf(client: RedisCommands, key: string): Promise<number> {
  return Number((await client.send(['MEMORY', 'USAGE', key, 'SAMPLES', '0'], key)) ?? 0);
}

async function sizeOf(client: RedisCommands, key: string): Promise<number> {
  const type = await client.type(key);
  if (type === 'set') return client.sCard(key);
  if (type === 'zset') return client.zCard(key);
  if (type === 'hash') return client.hLen(key);
  return 0;
}

/** Average MEMORY USAGE of up to MEMORY_SAMPLE_SIZE random members' keys (`keyOf(id)`). */
async function sampledAverage(scope: ModelScope, keyOf: (id: string) => string): Promise<{ average: number; sampled: number }> {
  const ids = await scope.client.zRandMemberCount(scope.keys.all, MEMORY_SAMPLE_SIZE);
  if (!ids || ids.length === 0) return { average: 0, sampled: 0 };
  const present = (await Promise.all(ids.map((id) => memoryOf(scope.client, keyOf(id))))).filter((n) => n > 0);
  return { average: present.length ? present.reduce((a, b) => a + b, 0) / present.length : 0, sampled: present.length };
}

/** One shard's usage; `indexes` (by name) gets its index keys added. */
async function shardUsage(scope: ModelScope, indexes: Map<string, { keys: number; entries: number; bytes: number }>) {
  const client = scope.client;
  const objectSample = await sampledAverage(scope, (id) => scope.keys.object(id));
  let memos = 0;
  let otherBytes = 0;
  const base = scope.keys.base;
  for await (const page of client.scanIterator({ MATCH: `${globEscape(base)}:*`, COUNT: 1000 })) {
    await Promise.all(
      page.map(async (key) => {
        const kind = kindOfKey(scope.definition, key.slice(base.length + 1));
        if (kind.kind === 'object' || kind.kind === 'tmp' || kind.kind === 'lock') return;
        if (kind.kind === 'memo') {
          memos++;
          return;
        }
        const bytes = await memoryOf(client, key);
        if (kind.kind !== 'index') {
          otherBytes += bytes;
          return;
        }
        const size = await sizeOf(client, key);
        const entry = indexes.get(kind.name)!;
        entry.keys++;
        entry.bytes += bytes;
        entry.entries += size;
      }),
    );
  }
  if (memos > 0) otherBytes += Math.round((await sampledAverage(scope, (id) => scope.keys.memo(id))).average * memos);
  return { objectAverage: objectSample.average, sampled: objectSample.sampled, otherBytes };
}

/**
 * The live objects of a scope and the memory they take (each shard of a sharded model): the objects' memory
 * is an estimate (MEMORY USAGE of up to MEMORY_SAMPLE_SIZE random objects per shard, averaged, times the
 * count); each index's is exact, summed over its keys (SCAN of the scope's keys). Reads only.
 */
export async function measureScope(scope: ModelScope): Promise<ScopeUsage> {
  const indexes = new Map(scope.definition.indexes.map((index) => [indexName(index), { keys: 0, entries: 0, bytes: 0 }]));
  let objects = 0;
  let objectBytes = 0;
  let sampled = 0;
  let otherBytes = 0;
  for (const shard of shardScopes(scope)) {
    const live = (await countObjects(shard)).live;
    const part = await shardUsage(shard, indexes);
    objects += live;
    objectBytes += Math.round(part.objectAverage * live);
    sampled += part.sampled;
    otherBytes += part.otherBytes;
  }
  return { objects, objectBytes, sampled, otherBytes, indexes: [...indexes].map(([index, usage]) => ({ index, ...usage })) };
}
