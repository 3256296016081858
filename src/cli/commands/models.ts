import type { ModelScope, StoredDefinition } from '../../admin';
import { CliContext, liveCount, tenantLabel } from '../context';
import { print } from '../output/print';
import { renderTable } from '../output/table';

export interface ModelSummary {
  readonly model: string;
  readonly group: string | null;
  /** `@Model({ cap })` as stored: `by`, `keep`, `order`, and `per` for a cap per value; null when not capped. */
  readonly cap: StoredDefinition['cap'];
  /** Tenants holding data (all of them, or the one of --tenant). */
  readonly tenants: string[];
  /** Live objects, summed over the scopes listed in `scopes`. */
  readonly objects: number;
  readonly scopes: Array<{ tenant: string | null; objects: number }>;
}

/** `models`: every model stored under the prefix, its tenants and its live objects. */
export async function modelsCommand(context: CliContext): Promise<number> {
  const summaries: ModelSummary[] = [];
  for (const definition of context.modelsOrAll(undefined)) {
    const scopes = await context.scopes(definition);
    const counts = await Promise.all(scopes.map((scope) => liveCount(scope)));
    summaries.push({
      model: definition.name,
      group: definition.group,
      cap: definition.cap,
      tenants: await tenantsWithData(context, definition, scopes),
      objects: counts.reduce((sum, n) => sum + n, 0),
      scopes: scopes.map((scope, i) => ({ tenant: scope.tenant ?? null, objects: counts[i] })),
    });
  }
  print(context.json, { prefix: context.prefix, models: summaries }, () =>
    summaries.length === 0
      ? `no model is stored under prefix ${JSON.stringify(context.prefix)}`
      : renderTable(
          ['MODEL', 'GROUP', 'CAP', 'OBJECTS', 'TENANTS'],
          summaries.map((s) => [s.model, s.group ?? '-', capLabel(s.cap), s.objects, s.tenants.length > 0 ? s.tenants.join(', ') : '-']),
        ),
  );
  return 0;
}

/** A cap as the table shows it: `keep 10 by at desc per userId`, or `-`. */
function capLabel(cap: StoredDefinition['cap']): string {
  if (!cap) return '-';
  return `keep ${cap.keep} by ${cap.by} ${cap.order}${cap.per === undefined ? '' : ` per ${cap.per}`}`;
}

/**
 * The tenants of `scopes` that hold data of the model: each tenant scope, found by its keys; the scope of
 * --tenant is listed only when that tenant holds a key of the model (live objects or not, as without --tenant).
 */
async function tenantsWithData(context: CliContext, definition: StoredDefinition, scopes: readonly ModelScope[]): Promise<string[]> {
  if (context.options.tenant === undefined) return scopes.filter((scope) => scope.tenant !== undefined).map(tenantLabel);
  return context.tenantsHolding(definition, context.options.tenant);
}
