import { shardScopes } from '../../integrity/model-scope';
import { scripts } from '../../store/scripts';
import { RedisCommands } from '../../redis/redis-commands';
import { CliContext } from '../context';
import { EXIT_OK } from '../errors';
import { print } from '../output/print';
import { startProgress } from '../output/progress';
import { renderTable } from '../output/table';

/** Objects deleted per script call, as Model.sweep() does: Redis is never blocked long. */
const SWEEP_BATCH = 1000;

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
    // each shard of a sharded model is swept on its own
    for (const definition of context.modelsOrAll(name)) scopes.push(...(await context.scopes(definition)).flatMap(shardScopes));
    const now = Date.now();
    const due = await Promise.all(scopes.map((scope) => context.client.zCount(scope.keys.expiring, '-inf', now)));
    progress.grow(due.reduce((sum, n) => sum + Number(n), 0));
    for (const scope of scopes) {
      let swept = 0;
      for (;;) {
        const deleted = Number(
          await scripts.sweep().run(context.client as unknown as RedisCommands, [scope.keys.all, scope.keys.base], [String(SWEEP_BATCH)]),
        );
        swept += deleted;
        progress.advance(deleted);
        if (deleted < SWEEP_BATCH) break;
      }
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
