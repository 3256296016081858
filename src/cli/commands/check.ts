import { checkScope, type Violation } from '../../admin';
import { CliContext, tenantLabel } from '../context';
import { EXIT_OK, EXIT_VIOLATIONS } from '../errors';
import { print } from '../output/print';
import { startProgress } from '../output/progress';
import { renderTable } from '../output/table';
import { batchSizeOption, forEachScope } from './scopes';

export interface ScopeCheck {
  readonly model: string;
  readonly tenant: string | null;
  readonly ok: boolean;
  readonly objects: number;
  readonly violations: Violation[];
}

export function violationRows(list: ReadonlyArray<{ tenant: string | null; violations: readonly Violation[] }>): string[][] {
  return list.flatMap((scope) => scope.violations.map((v) => [v.kind, v.model, scope.tenant ?? '-', v.id ?? '-', v.detail]));
}

/** `check [Model]`: every violation of the invariants, per model and tenant; exit code 1 when there is one. */
export async function checkCommand(context: CliContext, name: string | undefined, options: { batchSize?: string }): Promise<number> {
  const batchSize = batchSizeOption(options.batchSize);
  const progress = startProgress('check', context.json);
  const results: ScopeCheck[] = [];
  try {
    await forEachScope(context, name, progress, async (scope) => {
      const result = await checkScope(scope, { batchSize });
      results.push({
        model: scope.definition.name,
        tenant: scope.tenant ?? null,
        ok: result.ok,
        objects: result.objects,
        violations: result.violations,
      });
    });
  } finally {
    progress.stop();
  }
  const ok = results.every((r) => r.ok);
  const violations = results.reduce((sum, r) => sum + r.violations.length, 0);
  print(context.json, { ok, violations, scopes: results }, () => {
    const lines = [
      renderTable(
        ['MODEL', 'TENANT', 'OBJECTS', 'VIOLATIONS'],
        results.map((r) => [r.model, tenantLabel({ tenant: r.tenant ?? undefined }), r.objects, r.violations.length]),
      ),
    ];
    if (!ok) lines.push('', renderTable(['KIND', 'MODEL', 'TENANT', 'ID', 'DETAIL'], violationRows(results)));
    lines.push('', ok ? 'ok: no violations' : `${violations} violation${violations === 1 ? '' : 's'} (run repair to fix them)`);
    return lines.join('\n');
  });
  return ok ? EXIT_OK : EXIT_VIOLATIONS;
}
