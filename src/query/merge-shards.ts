import { EncodedFields } from '../mapper/encoded-fields';
import { PlanOrder } from '../store/query-plan';
import { compoundPart } from '../keys/compound-member';

/** One match of one shard, with the fields its order is read from. */
export interface ShardMatch {
  readonly id: string;
  readonly fields: EncodedFields;
}

type Compare = (a: ShardMatch, b: ShardMatch) => number;

/** Byte order of UTF-8 (what Redis compares), shorter first on a common prefix. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * The order one shard's query.lua gives its matches, so that merging the shards' pages gives exactly the page
 * an unsharded model would: ids numerically for sequence ids (else by bytes); a score index by value (absent
 * values last, as 'inf'), ties by id; a lex index by the value's bytes (absent last), ties by id length then id
 * (the member's `len(id) id` tail); descending is the exact reverse.
 */
export function shardOrder(order: PlanOrder, numericIds: boolean): Compare {
  const byId = numericIds
    ? (a: ShardMatch, b: ShardMatch) => Number(a.id) - Number(b.id)
    : (a: ShardMatch, b: ShardMatch) => compareBytes(a.id, b.id);
  if (order.kind === 'id') return byId;
  const field = order.field;
  let ascending: Compare;
  if (order.kind === 'compound') {
    // each part by its sortable form (as the index's member holds it) in its own direction; ties by id, in the
    // last part's direction (the member's `len(id) id` tail)
    const fields = field.split('+');
    // the parts the where pins hold one value: they compare equal
    const skip = fields.length - order.directions.length;
    const tieById = (a: ShardMatch, b: ShardMatch) => a.id.length - b.id.length || compareBytes(a.id, b.id);
    return (a, b) => {
      for (let i = skip; i < fields.length; i++) {
        const numeric = order.types[i] === '1';
        const x = compoundPart(a.fields.get(fields[i]), numeric);
        const y = compoundPart(b.fields.get(fields[i]), numeric);
        const compared = Buffer.compare(x, y);
        if (compared !== 0) return order.directions[i - skip] === 'd' ? -compared : compared;
      }
      return order.desc ? tieById(b, a) : tieById(a, b);
    };
  } else if (order.kind === 'score') {
    const score = (match: ShardMatch) => {
      const stored = match.fields.get(field);
      return stored === undefined ? Infinity : Number(stored);
    };
    ascending = (a, b) => score(a) - score(b) || byId(a, b);
  } else {
    const tieById = (a: ShardMatch, b: ShardMatch) => a.id.length - b.id.length || compareBytes(a.id, b.id);
    ascending = (a, b) => {
      const x = a.fields.get(field);
      const y = b.fields.get(field);
      if (x === undefined || y === undefined) return (x === undefined ? 1 : 0) - (y === undefined ? 1 : 0) || tieById(a, b);
      return compareBytes(x, y) || tieById(a, b);
    };
  }
  return order.desc ? (a, b) => ascending(b, a) : ascending;
}

/** Merges pages that are each sorted by `compare` and returns the `offset`, `limit` slice of the merged order. */
export function mergePages(pages: ReadonlyArray<readonly ShardMatch[]>, compare: Compare, offset: number, limit: number): ShardMatch[] {
  const merged = pages.flat().sort(compare);
  return merged.slice(offset, limit < 0 ? undefined : offset + limit);
}
