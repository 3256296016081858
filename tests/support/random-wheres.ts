/**
 * Random wheres for the query oracles: conditions of every operator (equality, in, not, notIn, exists, ranges on
 * ordered attributes) on the attributes given, ANDed, with ORs nested up to two levels deep.
 */
export interface WhereShape {
  /** Attribute -> a random value of it. */
  readonly values: Record<string, () => unknown>;
  /** The attributes that take ranges (numbers, Dates, sortable strings). */
  readonly ordered: ReadonlySet<string>;
}

export function randomWheres(random: () => number, shape: WhereShape): () => Record<string, unknown> {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
  const attributes = Object.keys(shape.values);

  function condition(attribute: string): unknown {
    const value = shape.values[attribute];
    const list = () => Array.from({ length: Math.floor(random() * 3) }, value);
    const kinds = ['eq', 'in', 'not', 'notIn', 'exists', 'not+exists', ...(shape.ordered.has(attribute) ? ['range', 'not+range'] : [])];
    switch (pick(kinds)) {
      case 'eq':
        return value();
      case 'in':
        return { in: list() };
      case 'not':
        return { not: value() };
      case 'notIn':
        return { notIn: list() };
      case 'exists':
        return { exists: random() < 0.5 };
      case 'not+exists':
        return { not: value(), exists: random() < 0.7 };
      case 'range':
        return random() < 0.5 ? { gte: value() } : { lt: value() };
      default:
        return { not: value(), gt: value() };
    }
  }

  function where(depth = 0): Record<string, unknown> {
    const built: Record<string, unknown> = {};
    const count = 1 + Math.floor(random() * 2);
    for (let c = 0; c < count; c++) {
      const attribute = pick(attributes);
      built[attribute] = condition(attribute);
    }
    if (depth < 2 && random() < 0.35) built.OR = [where(depth + 1), where(depth + 1)];
    return built;
  }

  return () => where();
}
