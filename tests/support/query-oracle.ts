/**
 * What a query must return, computed in plain TypeScript from the objects a test created: the documented
 * semantics of where, orderBy, offset and limit, written without any index. Tests compare redis-record's
 * answers with it over many queries.
 *   - equality and `in` compare values (numbers with ===, so 0 equals -0; Dates by time)
 *   - ranges: numbers and Dates numerically, strings by the bytes of their UTF-8 form
 *   - startsWith: a string prefix
 *   - absent values match no condition but `not` and `notIn` (the complements of equality and `in`) and
 *     `exists: false`
 *   - order: by value, ties by id (numeric for sequence ids, by bytes for uuids), absent values last;
 *     'desc' is the exact reverse of 'asc'
 */

export type Row = { readonly id: string } & Record<string, unknown>;
export type IdKind = 'sequence' | 'uuid';

type Value = string | number | boolean | Date;

function comparable(value: Value): number | string | boolean {
  return value instanceof Date ? value.getTime() : value;
}

/** -1, 0 or 1: numbers and Dates by value, strings by UTF-8 bytes. */
export function compareValues(a: Value, b: Value): number {
  const x = comparable(a);
  const y = comparable(b);
  if (typeof x === 'string' && typeof y === 'string') return Math.sign(Buffer.compare(Buffer.from(x, 'utf8'), Buffer.from(y, 'utf8')));
  if (typeof x === 'number' && typeof y === 'number') return x < y ? -1 : x > y ? 1 : 0;
  if (typeof x === 'boolean' && typeof y === 'boolean') return x === y ? 0 : x ? 1 : -1;
  throw new Error(`cannot compare ${String(a)} with ${String(b)}`);
}

export function compareIds(a: string, b: string, kind: IdKind): number {
  if (kind === 'sequence') return Math.sign(Number(a) - Number(b));
  return Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

function isOperators(condition: unknown): condition is Record<string, unknown> {
  return typeof condition === 'object' && condition !== null && !(condition instanceof Date) && !Array.isArray(condition);
}

function matchesCondition(value: unknown, condition: unknown): boolean {
  const absent = value === undefined || value === null;
  if (!isOperators(condition)) return !absent && compareValues(value as Value, condition as Value) === 0;
  const v = value as Value;
  for (const [operator, operand] of Object.entries(condition)) {
    if (operand === undefined) continue;
    // the negations and `exists` match absent values as they say; every other operator needs a value
    if (operator === 'exists') {
      if (operand !== !absent) return false;
      continue;
    }
    if (operator === 'not' || operator === 'notIn') {
      const excluded = operator === 'not' ? [operand as Value] : (operand as Value[]);
      if (!absent && excluded.some((item) => compareValues(v, item) === 0)) return false;
      continue;
    }
    if (absent) return false;
    switch (operator) {
      case 'in':
        if (!(operand as Value[]).some((item) => compareValues(v, item) === 0)) return false;
        break;
      case 'gt':
        if (!(compareValues(v, operand as Value) > 0)) return false;
        break;
      case 'gte':
        if (!(compareValues(v, operand as Value) >= 0)) return false;
        break;
      case 'lt':
        if (!(compareValues(v, operand as Value) < 0)) return false;
        break;
      case 'lte':
        if (!(compareValues(v, operand as Value) <= 0)) return false;
        break;
      case 'startsWith':
        if (!(v as string).startsWith(operand as string)) return false;
        break;
      default:
        throw new Error(`oracle: unknown operator ${operator}`);
    }
  }
  return true;
}

export function matches(row: Row, where: Record<string, unknown> | undefined): boolean {
  if (!where) return true;
  for (const [key, condition] of Object.entries(where)) {
    if (condition === undefined) continue;
    if (key === 'OR') {
      if (!(condition as Array<Record<string, unknown>>).some((branch) => matches(row, branch))) return false;
    } else if (!matchesCondition(row[key], condition)) return false;
  }
  return true;
}

/** The ids a findIds(where, { orderBy, offset, limit }) must return. */
export function expectedIds(
  rows: readonly Row[],
  where: Record<string, unknown> | undefined,
  options: { orderBy?: Readonly<Record<string, 'asc' | 'desc' | undefined>>; offset?: number; limit?: number } = {},
  kind: IdKind = 'sequence',
): string[] {
  const found = rows.filter((row) => matches(row, where));
  const [attribute, direction] = Object.entries(options.orderBy ?? {}).find(([, d]) => d !== undefined) ?? [];
  found.sort((a, b) => {
    if (attribute) {
      const x = a[attribute] as Value | undefined;
      const y = b[attribute] as Value | undefined;
      if (x === undefined && y !== undefined) return 1;
      if (y === undefined && x !== undefined) return -1;
      if (x !== undefined && y !== undefined) {
        const byValue = compareValues(x, y);
        if (byValue !== 0) return byValue;
      }
    }
    return compareIds(a.id, b.id, kind);
  });
  if (direction === 'desc') found.reverse();
  const offset = options.offset ?? 0;
  const end = options.limit === undefined ? undefined : offset + options.limit;
  return found.slice(offset, end).map((row) => row.id);
}
