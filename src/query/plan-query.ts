import { QueryError } from '../errors/errors';
import { ModelKeys } from '../keys/model-keys';
import { AttributeDescriptor } from '../model/attribute-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import { lexWindow, scoreWindow } from './bounds';
import { compileWhere } from './compile-where';
import { Pins, sortedKey, usableSortedIndex } from './index-lookup';
import { loadedFields } from './loaded-fields';
import { parseWhere } from './parse-where';
import { compoundOrderPlan, isCompoundOrder } from './compound-order';
import { isPlainObject } from '../util/plain-object';
import { PageRequest, QueryPlan } from '../store/query-plan';

interface OrderRequest {
  readonly attribute: AttributeDescriptor;
  readonly kind: 'score' | 'lex';
  readonly desc: boolean;
}

/**
 * The members of a many-to-many side a query is restricted to: the key of the side's set, or of its ordered
 * list (a sorted set of positions), intersected with the where's matches inside query.lua.
 */
export interface MemberKey {
  readonly key: string;
  readonly ordered: boolean;
}

/**
 * Plans a query. When the where only narrows the order's own index (a range on the ordered attribute, an
 * equality on its scope), the page is read straight from that index: O(log N + page). Otherwise the matches
 * are built with set algebra in temporary keys and then ordered.
 */
export function planQuery(model: ModelDescriptor, keys: ModelKeys, where: unknown, orderBy: unknown, within?: MemberKey): QueryPlan {
  if (isCompoundOrder(model, orderBy)) {
    // a collection's members are intersected with the matches: no window of the index answers them
    const plan = compoundOrderPlan(model, keys, where, orderBy, within === undefined);
    return { ...(within ? restrictedTo(plan, within) : plan), loadFields: loadedFields(model) };
  }
  const order = parseOrder(model, orderBy);
  const loadFields = loadedFields(model);
  if (within) return { ...memberPlan(model, keys, where, order, within), loadFields };
  if (!order) return { program: compileWhere(model, keys, where) ?? [], order: { kind: 'id' }, loadFields };
  return { ...(windowPlan(model, keys, where, order) ?? generalPlan(model, keys, where, order)), loadFields };
}

function parseOrder(model: ModelDescriptor, orderBy: unknown): OrderRequest | undefined {
  if (orderBy === undefined) return undefined;
  if (!isPlainObject(orderBy)) throw new QueryError(`${model.name}: orderBy takes { attribute: 'asc' | 'desc' }`);
  const entries = Object.entries(orderBy).filter(([, direction]) => direction !== undefined);
  if (entries.length === 0) return undefined;
  if (entries.length > 1) throw new QueryError(`${model.name}: orderBy takes one attribute`);
  const [name, direction] = entries[0];
  const attribute = model.attribute(name);
  if (!attribute) throw new QueryError(`${model.name} has no attribute ${name}`);
  if (direction !== 'asc' && direction !== 'desc') throw new QueryError(`${model.name}: orderBy ${name} must be 'asc' or 'desc'`);
  const kind = attribute.type === 'number' || attribute.type === 'date' ? 'score' : 'lex';
  const indexed = model.indexes.some((index) => index.attribute === attribute && index.kind === kind);
  if (!indexed) {
    if (attribute.type !== 'number' && attribute.type !== 'date' && attribute.type !== 'string') {
      throw new QueryError(
        `${model.name}.${name}: orderBy applies to numbers, Dates and sortable strings, not to a ${attribute.type} attribute`,
      );
    }
    const needed = kind === 'score' ? '@Index()' : '@Index({ sortable: true })';
    throw new QueryError(`${model.name}.${name}: orderBy needs ${needed} on ${name}`);
  }
  return { attribute, kind, desc: direction === 'desc' };
}

function windowPlan(model: ModelDescriptor, keys: ModelKeys, where: unknown, order: OrderRequest): QueryPlan | undefined {
  const parsed = parseWhere(model, where);
  if (parsed.or) return undefined;
  const pins = new Map<string, string>();
  let own;
  for (const condition of parsed.conditions) {
    // a negation or an absence condition is set algebra: the general plan
    if (condition.notEquals || condition.exists !== undefined) return undefined;
    if (condition.attribute === order.attribute) {
      if (condition.equals) return undefined;
      own = condition;
    } else if (condition.equals?.length === 1 && !condition.score && !condition.lex) {
      pins.set(condition.attribute.field, condition.equals[0]);
    } else return undefined;
  }
  const found = usableSortedIndex(model, order.attribute.field, order.kind, pins);
  if (!found) return undefined;
  const scope = found.index.scope?.field;
  if ([...pins.keys()].some((field) => field !== scope)) return undefined;
  const window = order.kind === 'score' ? scoreWindow(own?.score) : lexWindow(own?.lex);
  return {
    program: [],
    order: { kind: order.kind, key: sortedKey(keys, found), field: order.attribute.field, desc: order.desc },
    window,
  };
}

/**
 * A query restricted to the members of `within`: the where's program (or none) intersected with the member key.
 * Without an orderBy, the members of an ordered list come in the list's order (its positions are the scores
 * query.lua orders by), the members of a set in id order.
 */
function memberPlan(
  model: ModelDescriptor,
  keys: ModelKeys,
  where: unknown,
  order: OrderRequest | undefined,
  within: MemberKey,
): QueryPlan {
  const plan: QueryPlan = order
    ? generalPlan(model, keys, where, order)
    : {
        program: compileWhere(model, keys, where) ?? [],
        order: within.ordered ? { kind: 'score', key: within.key, field: '', desc: false } : { kind: 'id' },
      };
  return restrictedTo(plan, within);
}

/** A plan whose matches are only the members of a collection. */
function restrictedTo(plan: QueryPlan, within: MemberKey): QueryPlan {
  const members = [within.ordered ? 'K' : 'S', within.key];
  return { ...plan, program: plan.program.length === 0 ? members : [...plan.program, ...members, '&', '2'] };
}

function generalPlan(model: ModelDescriptor, keys: ModelKeys, where: unknown, order: OrderRequest): QueryPlan {
  const program = compileWhere(model, keys, where) ?? [];
  const field = order.attribute.field;
  const pins: Pins = new Map(
    parseWhere(model, where)
      .conditions.filter((condition) => condition.equals?.length === 1)
      .map((condition) => [condition.attribute.field, condition.equals![0]]),
  );
  const found = usableSortedIndex(model, field, order.kind, pins);
  if (!found) {
    const scoped = model.indexes.find((index) => index.attribute === order.attribute && index.scope);
    throw new QueryError(
      `${model.name}.${field}: orderBy uses an index scoped by ${scoped?.scope?.field}; add an equality on ${scoped?.scope?.field} to the where, or an unscoped @Index() on ${field}`,
    );
  }
  return { program, order: { kind: order.kind, key: sortedKey(keys, found), field, desc: order.desc } };
}

export function pageRequest(model: ModelDescriptor, options: { offset?: unknown; limit?: unknown }): PageRequest {
  // null is refused like any other non-number (as for limit); only a missing offset means 0
  const offset = options.offset === undefined ? 0 : options.offset;
  const limit = options.limit;
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) {
    throw new QueryError(`${model.name}: offset must be a whole number >= 0`);
  }
  if (limit !== undefined && (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0)) {
    throw new QueryError(`${model.name}: limit must be a whole number >= 0`);
  }
  return { offset, limit: limit === undefined ? -1 : limit };
}
