import { ModelKeys } from '../../keys/model-keys';
import { fieldsFromReply } from '../../mapper/attribute-encoder';
import { EncodedFields } from '../../mapper/encoded-fields';
import { EntryScript } from '../entry-script';
import { sortRowsById } from '../id-order';
import { PageRequest, QueryPlan, ScriptArg } from '../query-plan';
import { scripts } from '../scripts';

/** query.lua: one query answered inside Redis (see its header). */
export interface QueryInput {
  readonly keys: ModelKeys;
  readonly mode: 'ids' | 'load' | 'count';
  /** The model's ids are sequence numbers. */
  readonly numericIds: boolean;
  readonly plan: QueryPlan;
  readonly page: PageRequest;
}

/**
 * The reply, in the query's order: 'ids' the page's ids (string[]); 'load' the objects (StoredObject[]); 'count'
 * a number. A reply the script left to the client to order (sortedByClient) is put in id order here.
 */
export const queryScript: EntryScript<QueryInput, unknown> = {
  function: () => scripts.query(),
  keys: ({ keys }) => [keys.all, keys.base],
  args({ mode, numericIds, plan, page }) {
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
      order.kind === 'compound' ? `${order.directions}:${order.types}` : order.kind !== 'id' && order.desc ? '1' : '0',
    ];
    if (plan.window) args.push('1', plan.window.min, plan.window.max);
    else args.push('0', '', '');
    args.push(page.after ?? '');
    const fields = mode === 'load' ? plan.loadFields : undefined;
    if (fields) {
      args.push(String(fields.length));
      for (const field of fields) args.push(field);
    } else args.push('0');
    if (!plan.window) for (const instruction of plan.program) args.push(instruction);
    return args;
  },
  reply(reply, { mode, numericIds, plan, page }) {
    if (mode === 'count') return Number(reply);
    const rows = sortedByClient(mode, numericIds, plan, page)
      ? sortRowsById(reply as unknown[], mode === 'ids' ? 1 : (plan.loadFields?.length ?? 2))
      : reply;
    return mode === 'ids' ? rows : storedObjects(plan.loadFields, rows as unknown[]);
  },
};

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

/** An object a query read: its id and stored fields. */
export interface StoredObject {
  readonly id: string;
  readonly fields: EncodedFields;
}

/**
 * The objects of query.lua's 'load' reply (and of rows read in its layout: window-read.ts): n values per object
 * after HMGET of n fields, else id / HGETALL pairs.
 */
export function storedObjects(fields: readonly string[] | undefined, reply: ReadonlyArray<unknown>): StoredObject[] {
  const objects: StoredObject[] = [];
  if (fields === undefined) {
    for (let i = 0; i + 1 < reply.length; i += 2) objects.push({ id: String(reply[i]), fields: fieldsFromReply(reply[i + 1]) });
    return objects;
  }
  const stride = fields.length;
  for (let at = 0; at + stride <= reply.length; at += stride) {
    const stored: EncodedFields = new Map();
    // position 0 holds the id, in place of `#id`, which the entity does not own
    for (let f = 1; f < stride; f++) {
      const value = reply[at + f];
      if (value !== null && value !== undefined) stored.set(fields[f], String(value));
    }
    objects.push({ id: String(reply[at]), fields: stored });
  }
  return objects;
}
