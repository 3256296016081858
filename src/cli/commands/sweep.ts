import { countObjects, sweepScope } from '../../admin';
import { CliContext } from '../context';
import { EXIT_OK } from '../errors';
import { print } from '../output/print';
import { startProgress } from '../output/progress';
import { renderTable } from '../output/table';

export interface ScopeSweep {
  readonly model: string;
  readonly tenant: string | null;
  readonly swept: number;
}

/** `sweep [Model]`: deletes every expired object with all its entries (sweep.lua, from each object's memo). */
export async function sweepCommand(context: CliContext, name: string | undefined): Promise<number> {
  const progress = startProgress('sweep', context.json);
  const results: ScopeSweep[] = [];
  try {
    const scopes = [];
    for (const definition of context.modelsOrAll(name)) scopes.push(...(await context.scopes(definition)));
    const counts = await Promise.all(scopes.map(countObjects));
    progress.grow(counts.reduce((sum, n) => sum + n.expired, 0));
    for (const scope of scopes) {
      const swept = await sweepScope(scope, { onProgress: (deleted) => progress.advance(deleted) });
      results.push({ model: scope.definition.name, tenant: scope.tenant ?? null, swept });
    }
  } finally {
    progress.stop();
  }
  const total = results.reduce((sum, r) => sum + r.swept, 0);
  print(context.json, { swept: total, scopes: results }, () =>
    [
      renderTable(
        ['MODEL', 'TENANT', 'SWEPT'],
        results.map((r) => [r.model, r.tenant ?? '-', r.swept]),
      ),
      '',
      `${total} expired object${total === 1 ? '' : 's'} deleted`,
    ].join('\n'),
  );
  return EXIT_OK;
}
