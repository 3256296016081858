/** A query compiled for query.lua (see its header for the instruction set). */
export type ScriptArg = string | Buffer;

export type PlanOrder =
  { readonly kind: 'id' } | { readonly kind: 'score' | 'lex'; readonly key: string; readonly field: string; readonly desc: boolean };

export interface QueryPlan {
  /** Instructions leaving the matching ids on the stack; empty: every object. */
  readonly program: readonly ScriptArg[];
  readonly order: PlanOrder;
  /** Set when the page is read straight from a window of the order's index (no temporary keys). */
  readonly window?: { readonly min: ScriptArg; readonly max: ScriptArg };
  /** The hash fields a load reads (HMGET), `#id` first; undefined: every field (HGETALL). See loaded-fields.ts. */
  readonly loadFields?: readonly string[];
}

export interface PageRequest {
  readonly offset: number;
  /** -1: no limit. */
  readonly limit: number;
  readonly afterId?: string;
}

export function planArguments(mode: 'ids' | 'load' | 'count', numericIds: boolean, plan: QueryPlan, page: PageRequest): ScriptArg[] {
  const order = plan.order;
  const args: ScriptArg[] = [
    mode,
    numericIds ? '1' : '0',
    String(page.offset),
    String(page.limit),
    page.afterId ?? '',
    order.kind,
    order.kind === 'id' ? '' : order.key,
    order.kind === 'id' ? '' : order.field,
    order.kind !== 'id' && order.desc ? '1' : '0',
  ];
  if (plan.window) args.push('1', plan.window.min, plan.window.max);
  else args.push('0', '', '');
  const fields = mode === 'load' ? plan.loadFields : undefined;
  if (fields) {
    args.push(String(fields.length));
    for (const field of fields) args.push(field);
  } else args.push('0');
  if (!plan.window) for (const instruction of plan.program) args.push(instruction);
  return args;
}

/**
 * Whether query.lua leaves the ordering of a reply to the client: a whole page (no offset, limit or afterId)
 * in id order of sequence ids, read from one index window (a program of one Z or L instruction). Sorting the
 * window's ids there costs Redis about as much as reading them; the client sorts them instead (id-order.ts).
 * query.lua applies the same rule.
 */
export function sortedByClient(mode: 'ids' | 'load' | 'count', numericIds: boolean, plan: QueryPlan, page: PageRequest): boolean {
  const program = plan.program;
  return (
    mode !== 'count' &&
    numericIds &&
    plan.order.kind === 'id' &&
    !plan.window &&
    program.length === 4 &&
    (program[0] === 'Z' || program[0] === 'L') &&
    page.offset === 0 &&
    page.limit < 0 &&
    !page.afterId
  );
}
