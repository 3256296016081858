import { indexName, rebuildIndexes, repairScope } from '../../admin';
import { CliContext } from '../context';
import { EXIT_OK, EXIT_VIOLATIONS } from '../errors';
import { print } from '../output/print';
import { Progress, startProgress } from '../output/progress';
import { renderTable } from '../output/table';
import { batchSizeOption, forEachScope } from './scopes';

const DEFAULT_BATCH = 500;

export interface ScopeReindex {
  readonly model: string;
  readonly tenant: string | null;
  /** Objects whose entries were rewritten. */
  readonly objects: number;
  /** What repair-object.lua said per object, counted: rebuilt, conflict, expired, ... */
  readonly outcomes: Record<string, number>;
  /** Fixes applied afterwards: stale entries and keys of no declared index removed. */
  readonly cleaned: string[];
  readonly left: number;
}

/**
 * `reindex <Model>`: rebuilds the model's index entries from the stored objects and the stored definition,
 * in every scope (or the one of --tenant): each object's entries are rewritten in one atomic step, then
 * entries and keys no object calls for are removed (repair). Safe while the application writes.
 */
export async function reindexCommand(context: CliContext, name: string, options: { batchSize?: string }): Promise<number> {
  const batchSize = batchSizeOption(options.batchSize) ?? DEFAULT_BATCH;
  const definition = context.definition(name);
  const progress = startProgress('reindex', context.json);
  const results: ScopeReindex[] = [];
  try {
    // forEachScope advances the bar per scope; here the bar advances per object, so it gets a silent one.
    const silent: Progress = { grow: (n) => progress.grow(n), advance: () => undefined, stop: () => undefined };
    await forEachScope(context, name, silent, async (scope) => {
      const built = await rebuildIndexes(scope, { batchSize, onProgress: (objects) => progress.advance(objects) });
      const cleanup = await repairScope(scope, { batchSize });
      results.push({ model: definition.name, tenant: scope.tenant ?? null, ...built, cleaned: cleanup.fixed, left: cleanup.left.length });
    });
  } finally {
    progress.stop();
  }
  const left = results.reduce((sum, r) => sum + r.left, 0);
  const indexes = definition.indexes.map(indexName);
  print(context.json, { model: definition.name, indexes, scopes: results }, () =>
    [
      `indexes: ${indexes.length > 0 ? indexes.join(', ') : 'none'}`,
      '',
      renderTable(
        ['MODEL', 'TENANT', 'OBJECTS', 'OUTCOMES', 'CLEANED', 'LEFT'],
        results.map((r) => [
          r.model,
          r.tenant ?? '-',
          r.objects,
          Object.entries(r.outcomes)
            .map(([k, n]) => `${k} ${n}`)
            .join(', ') || '-',
          r.cleaned.length,
          r.left,
        ]),
      ),
      ...(left > 0 ? ['', `${left} violation${left === 1 ? '' : 's'} without a safe fix: run check for details`] : []),
    ].join('\n'),
  );
  return left === 0 ? EXIT_OK : EXIT_VIOLATIONS;
}
