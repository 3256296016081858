import { PageRequest, QueryPlan, sortedByClient } from './query-plan';

/**
 * A query.lua reply put in id order when the script left that to the client (see sortedByClient): the ids of
 * an 'ids' reply, or the objects of a 'load' reply (groups of `stride` values: n HMGET values, or id and
 * HGETALL list). Sequence ids, so numeric order; any other reply is returned as it is.
 */
export function inIdOrder(
  mode: 'ids' | 'load' | 'count',
  numericIds: boolean,
  plan: QueryPlan,
  page: PageRequest,
  reply: unknown,
): unknown {
  if (!sortedByClient(mode, numericIds, plan, page) || !Array.isArray(reply)) return reply;
  const stride = mode === 'ids' ? 1 : (plan.loadFields?.length ?? 2);
  const count = Math.floor(reply.length / stride);
  const keys = new Float64Array(count);
  for (let i = 0; i < count; i++) keys[i] = Number(reply[i * stride]);
  const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => keys[a] - keys[b]);
  const sorted = new Array<unknown>(count * stride);
  for (let i = 0; i < count; i++) {
    const from = order[i] * stride;
    for (let k = 0; k < stride; k++) sorted[i * stride + k] = reply[from + k];
  }
  return sorted;
}
