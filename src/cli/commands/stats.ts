import { indexName, measureScope, type IndexUsage } from '../../admin';
import { CliContext, tenantLabel } from '../context';
import { print } from '../output/print';
import { formatBytes, renderTable } from '../output/table';

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
  readonly indexes: IndexUsage[];
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
  for (const scope of scopes) {
    const part = await measureScope(scope);
    objects += part.objects;
    objectBytes += part.objectBytes;
    sampled += part.sampled;
    otherBytes += part.otherBytes;
    for (const usage of part.indexes) {
      const total = indexes.get(usage.index)!;
      total.keys += usage.keys;
      total.entries += usage.entries;
      total.bytes += usage.bytes;
    }
  }
  const indexList: IndexUsage[] = [...indexes].map(([index, s]) => ({ index, ...s }));
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
