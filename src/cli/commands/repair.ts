import { repairScope, type Violation } from '../../admin';
import { CliContext } from '../context';
import { EXIT_OK, EXIT_VIOLATIONS } from '../errors';
import { print } from '../output/print';
import { startProgress } from '../output/progress';
import { renderTable } from '../output/table';
import { violationRows } from './check';
import { batchSizeOption, forEachScope } from './scopes';

export interface ScopeRepair {
  readonly model: string;
  readonly tenant: string | null;
  readonly found: Violation[];
  readonly fixed: string[];
  readonly left: Violation[];
}

/** `repair [Model]`: finds the violations and applies each fix; exit code 1 when some are left (no safe fix). */
export async function repairCommand(context: CliContext, name: string | undefined, options: { batchSize?: string }): Promise<number> {
  const batchSize = batchSizeOption(options.batchSize);
  const progress = startProgress('repair', context.json);
  const results: ScopeRepair[] = [];
  try {
    await forEachScope(context, name, progress, async (scope) => {
      const result = await repairScope(scope, { batchSize });
      results.push({ model: scope.definition.name, tenant: scope.tenant ?? null, ...result });
    });
  } finally {
    progress.stop();
  }
  const found = results.reduce((sum, r) => sum + r.found.length, 0);
  const fixed = results.reduce((sum, r) => sum + r.fixed.length, 0);
  const left = results.reduce((sum, r) => sum + r.left.length, 0);
  print(context.json, { ok: left === 0, found, fixed, left, scopes: results }, () => {
    const lines = [
      renderTable(
        ['MODEL', 'TENANT', 'FOUND', 'FIXED', 'LEFT'],
        results.map((r) => [r.model, r.tenant ?? '-', r.found.length, r.fixed.length, r.left.length]),
      ),
    ];
    const fixes = results.flatMap((r) => r.fixed.map((line) => [r.model, r.tenant ?? '-', line]));
    if (fixes.length > 0) lines.push('', renderTable(['MODEL', 'TENANT', 'FIX'], fixes));
    if (left > 0)
      lines.push(
        '',
        'left (no safe fix; see docs/cli.md):',
        renderTable(
          ['KIND', 'MODEL', 'TENANT', 'ID', 'DETAIL'],
          violationRows(results.map((r) => ({ tenant: r.tenant, violations: r.left }))),
        ),
      );
    lines.push(
      '',
      found === 0
        ? 'ok: nothing to repair'
        : `${fixed} fix${fixed === 1 ? '' : 'es'} applied${left > 0 ? `, ${left} violation${left === 1 ? '' : 's'} left` : ''}`,
    );
    return lines.join('\n');
  });
  return left === 0 ? EXIT_OK : EXIT_VIOLATIONS;
}
