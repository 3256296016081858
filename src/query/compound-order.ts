import { QueryError } from '../errors/errors';
import { ModelKeys } from '../keys/model-keys';
import { AttributeDescriptor } from '../model/attribute-descriptor';
import { IndexDescriptor } from '../model/index-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import { QueryPlan } from '../store/query-plan';
import { isPlainObject } from '../util/plain-object';
import { compileWhere } from './compile-where';
import { compoundWindow } from './compound-source';
import { parseWhere } from './parse-where';

/** One attribute of an orderBy and its direction. */
interface OrderTerm {
  readonly attribute: AttributeDescriptor;
  readonly desc: boolean;
}

/**
 * Whether an orderBy is for a compound index: a list of several attributes (`[{ score: 'desc' }, { createdAt:
 * 'asc' }]`), a list of one, or one attribute that has no sorted index of its own but is a compound index's part.
 */
export function isCompoundOrder(model: ModelDescriptor, orderBy: unknown): boolean {
  if (Array.isArray(orderBy)) return true;
  if (!isPlainObject(orderBy) || !model.indexes.some((index) => index.kind === 'compound')) return false;
  const names = Object.keys(orderBy).filter((name) => orderBy[name] !== undefined);
  if (names.length !== 1) return false;
  const attribute = model.attribute(names[0]);
  return (
    attribute !== undefined &&
    !model.indexes.some((index) => index.attribute === attribute && (index.kind === 'score' || index.kind === 'lex')) &&
    model.indexes.some((index) => index.parts?.includes(attribute))
  );
}

function orderTerms(model: ModelDescriptor, orderBy: unknown): OrderTerm[] {
  const list = Array.isArray(orderBy) ? orderBy : [orderBy];
  if (list.length === 0) throw new QueryError(`${model.name}: orderBy takes at least one attribute`);
  return list.map((item) => {
    if (!isPlainObject(item)) throw new QueryError(`${model.name}: orderBy takes [{ attribute: 'asc' | 'desc' }, ...]`);
    const entries = Object.entries(item).filter(([, direction]) => direction !== undefined);
    if (entries.length !== 1) throw new QueryError(`${model.name}: each orderBy entry names one attribute`);
    const [name, direction] = entries[0];
    const attribute = model.attribute(name);
    if (!attribute) throw new QueryError(`${model.name} has no attribute ${name}`);
    if (direction !== 'asc' && direction !== 'desc') throw new QueryError(`${model.name}: orderBy ${name} must be 'asc' or 'desc'`);
    return { attribute, desc: direction === 'desc' };
  });
}

/**
 * Plans a query ordered by a compound index: the where's single equalities pin the index's leading parts, and
 * the order names the parts after them, in order. The page is read from one window of the index when the where
 * is only those equalities and a range on the next part; otherwise the matches are built as any where, then put
 * in the index's order (always, unless `windowed`). No index that fits is a QueryError naming the index to declare.
 */
export function compoundOrderPlan(model: ModelDescriptor, keys: ModelKeys, where: unknown, orderBy: unknown, windowed = true): QueryPlan {
  const terms = orderTerms(model, orderBy);
  const parsed = parseWhere(model, where);
  const pinned = (attribute: AttributeDescriptor) =>
    parsed.conditions.some((c) => c.attribute === attribute && c.equals?.length === 1 && !c.score && !c.lex && !c.tags);
  for (const index of model.indexes) {
    if (index.kind !== 'compound') continue;
    const parts = index.parts!;
    let lead = 0;
    while (lead < parts.length && pinned(parts[lead])) lead++;
    const open = terms.filter((term) => !parts.slice(0, lead).includes(term.attribute));
    if (open.length === 0 || open.length > parts.length - lead || open.some((term, i) => parts[lead + i] !== term.attribute)) continue;
    const last = open[open.length - 1].desc;
    // the pinned parts hold one value among the matches: only the parts after them take a direction
    const directions = parts.slice(lead).map((_, i) => ((open[i] ?? { desc: last }).desc ? 'd' : 'a'));
    const order = {
      kind: 'compound' as const,
      key: keys.sorted('lex', index.attribute.field),
      field: index.attribute.field,
      desc: last,
      directions: directions.join(''),
      types: parts.map((part) => (part.type === 'string' ? '0' : '1')).join(''),
    };
    const window = windowed ? windowOf(keys, index, parsed) : undefined;
    if (window) return { program: [], order, window };
    return { program: compileWhere(model, keys, where) ?? [], order };
  }
  const names = terms.map((term) => JSON.stringify(term.attribute.property)).join(', ');
  throw new QueryError(
    `${model.name}: orderBy ${names} needs a compound index of those attributes, after the ones the where pins with an equality: @Index([${names}]) on the class`,
  );
}

/** The window of `index` that answers the whole where, if one does. */
function windowOf(keys: ModelKeys, index: IndexDescriptor, parsed: ReturnType<typeof parseWhere>) {
  if (parsed.or) return undefined;
  if (parsed.conditions.length === 0) return { min: '-', max: '+' };
  const match = compoundWindow(keys, index, parsed.conditions);
  if (!match || match.used.size !== parsed.conditions.length) return undefined;
  return { min: match.min, max: match.max };
}
