import { ModelScope, shardScopes } from '../../integrity/model-scope';
import { indexName } from '../../schema/stored-definition';
import { CliClient } from '../connect-cli';
import { CliContext, liveCount, tenantLabel } from '../context';
import { kindOfKey } from '../key-kinds';
import { print } from '../output/print';
import { formatBytes, renderTable } from '../output/table';

/** Objects whose hash is measured with MEMORY USAGE; the total is their average times the object count. */
export const SAMPLE_SIZE = 100;

export interface IndexStats {
  readonly index: string;
  readonly keys: number;
  /** Members (sets, sorted sets) or fields (unique hashes), summed over the index's keys. */
  readonly entries: number;
  readonly bytes: number;
}

export interface ModelStats {
  readonly model: string;
  readonly tenants: string[];
  readonly objects: number;
  /** Estimated: the sampled objects' MEMORY USAGE, averaged, times `objects`. */
  readonly objectBytes: number;
  readonly sampled: number;
  /** Summed over every key: `all`, `exp`, `seq` and memos' estimate excluded (see `otherBytes`). */
  readonly indexBytes: number;
  /** `all`, `exp`, `seq`, membership sets, memos (sampled like objects) and keys of no declared index. */
  readonly otherBytes: number;
  readonly totalBytes: number;
  readonly indexes: IndexStats[];
}

async function memoryOf(client: CliClient, key: string): Promise<number> {
  const bytes = await client.send(['MEMORY', 'USAGE', key, 'SAMPLES', '0'], key);
  return Number(bytes ?? 0);
}

async function sizeOf(client: CliClient, key: string): Promise<number> {
  const type = await client.type(key);
  if (type === 'set') return Number(await client.sCard(key));
  if (type === 'zset') return Number(await client.zCard(key));
  if (type === 'hash') return Number(await client.hLen(key));
  return 0;
}

/** Average MEMORY USAGE of up to SAMPLE_SIZE random members' keys (`<prefix of key><id>`). */
async function sampledAverage(
  client: CliClient,
  scope: ModelScope,
  keyOf: (id: string) => string,
): Promise<{ average: number; sampled: number }> {
  const ids = (await client.zRandMemberCount(scope.keys.all, SAMPLE_SIZE)) as unknown as string[] | null;
  if (!ids || ids.length === 0) return { average: 0, sampled: 0 };
  const sizes = await Promise.all(ids.map((id) => memoryOf(client, keyOf(id))));
  const present = sizes.filter((n) => n > 0);
  return { average: present.length ? present.reduce((a, b) => a + b, 0) / present.length : 0, sampled: present.length };
}

async function scopeStats(context: CliContext, scope: ModelScope, indexes: Map<string, { keys: number; entries: number; bytes: number }>) {
  const client = context.client;
  const objects = await liveCount(client, scope);
  const objectSample = await sampledAverage(client, scope, (id) => scope.keys.object(id));
  let memos = 0;
  let otherBytes = 0;
  const base = scope.keys.base;
  const escaped = base.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
  for await (const page of client.scanIterator({ MATCH: `${escaped}:*`, COUNT: 1000 })) {
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
  if (memos > 0) otherBytes += Math.round((await sampledAverage(client, scope, (id) => scope.keys.memo(id))).average * memos);
  return { objects, objectBytes: Math.round(objectSample.average * objects), sampled: objectSample.sampled, otherBytes };
}

/** `stats <Model>`: objects, memory (objects sampled, index keys summed) and each index's keys and entries. */
export async function statsCommand(context: CliContext, name: string): Promise<number> {
  const definition = context.definition(name);
  const indexes = new Map(definition.indexes.map((index) => [indexName(index), { keys: 0, entries: 0, bytes: 0 }]));
  const scopes = await context.scopes(definition);
  let objects = 0;
  let objectBytes = 0;
  let sampled = 0;
  let otherBytes = 0;
  for (const scope of scopes.flatMap(shardScopes)) {
    const part = await scopeStats(context, scope, indexes);
    objects += part.objects;
    objectBytes += part.objectBytes;
    sampled += part.sampled;
    otherBytes += part.otherBytes;
  }
  const indexList: IndexStats[] = [...indexes].map(([index, s]) => ({ index, ...s }));
  const indexBytes = indexList.reduce((sum, s) => sum + s.bytes, 0);
  const stats: ModelStats = {
    model: definition.name,
    tenants: scopes.filter((s) => s.tenant !== undefined).map(tenantLabel),
    objects,
    objectBytes,
    sampled,
    indexBytes,
    otherBytes,
    totalBytes: objectBytes + indexBytes + otherBytes,
    indexes: indexList,
  };
  print(context.json, stats, () =>
    [
      renderTable(
        ['MODEL', 'OBJECTS', 'OBJECT MEMORY', 'INDEX MEMORY', 'OTHER', 'TOTAL'],
        [
          [
            stats.model,
            objects,
            `${formatBytes(objectBytes)} (${sampled} sampled)`,
            formatBytes(indexBytes),
            formatBytes(otherBytes),
            formatBytes(stats.totalBytes),
          ],
        ],
      ),
      '',
      indexList.length === 0
        ? 'no indexes'
        : renderTable(
            ['INDEX', 'KEYS', 'ENTRIES', 'MEMORY'],
            indexList.map((s) => [s.index, s.keys, s.entries, formatBytes(s.bytes)]),
          ),
    ].join('\n'),
  );
  return 0;
}
