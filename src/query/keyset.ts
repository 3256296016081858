import { numberCodec } from '../codecs/number-codec';
import { QueryError } from '../errors/errors';
import { isSequenceId, isValidId } from '../keys/id-format';
import { lexMemberBytes } from '../keys/lex-member';
import { compoundMember, compoundPart } from '../keys/compound-member';
import { partsOfName } from '../model/index-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import { PageRequest, PlanOrder, QueryPlan, ScriptArg } from '../store/query-plan';
import { ShardMatch } from './merge-shards';

/**
 * Keyset pages (findPage): a page starts after the last object of the page before, found by its place in the
 * order, (value, id), not by an offset. An object that stays matched with its value is neither skipped nor read
 * twice, whatever is written between two pages.
 *
 * The cursor is opaque to users: base64url of the JSON [1, model, order, id, key], where order is 'id' or
 * '<field>:asc|desc' and key the object's ordered value as stored (a score index's absent value as 'inf', a lex
 * index's as null; a compound index's parts, each as stored or null). Anything else is refused with a QueryError
 * before a script runs. A compound order pages in one direction: its parts' members are read as one lex range.
 */
export interface Keyset {
  readonly id: string;
  /**
   * The ordered value as stored: a score's text ('inf' when absent), a lex value (null when absent), a compound
   * index's part values (each null when absent); null in id order.
   */
  readonly key: string | null | ReadonlyArray<string | null>;
}

const VERSION = 1;

function orderName(order: PlanOrder): string {
  return order.kind === 'id' ? 'id' : `${order.field}:${order.desc ? 'desc' : 'asc'}`;
}

/** findPage in compound order: one direction for every part the where does not pin, else a QueryError. */
export function checkKeysetOrder(model: ModelDescriptor, order: PlanOrder): void {
  if (order.kind === 'compound' && new Set(order.directions).size > 1) {
    throw new QueryError(
      `${model.name}.findPage: a compound orderBy pages in one direction (all 'asc' or all 'desc'); findBy with offset and limit takes mixed ones`,
    );
  }
}

/** The cursor of the page after `last`, in `order`. */
export function encodeCursor(model: ModelDescriptor, order: PlanOrder, last: ShardMatch): string {
  let key: Keyset['key'] = null;
  if (order.kind === 'compound') key = partsOfName(order.field)!.map((field) => last.fields.get(field) ?? null);
  else if (order.kind !== 'id') key = last.fields.get(order.field) ?? (order.kind === 'score' ? 'inf' : null);
  return Buffer.from(JSON.stringify([VERSION, model.name, orderName(order), last.id, key])).toString('base64url');
}

/** The keyset a cursor names; a QueryError for anything findPage did not make for this model and order. */
export function decodeCursor(model: ModelDescriptor, order: PlanOrder, cursor: unknown): Keyset {
  const bad = (why: string) => new QueryError(`${model.name}.findPage: bad cursor (${why}); pass the next of a page as it came`);
  if (typeof cursor !== 'string') throw bad(`a cursor is a string, got ${cursor === null ? 'null' : typeof cursor}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad('not one findPage made');
  }
  if (!Array.isArray(parsed) || parsed.length !== 5 || parsed[0] !== VERSION) throw bad('not one findPage made');
  const [, name, made, id, key] = parsed as unknown[];
  if (name !== model.name) throw bad(`made for model ${String(name)}`);
  if (made !== orderName(order)) throw bad(`made for orderBy ${String(made)}, not ${orderName(order)}`);
  const validId = typeof id === 'string' && (model.idStrategy === 'sequence' ? isSequenceId(id) : isValidId(id));
  if (!validId) throw bad('its id is no id of the model');
  const valid =
    order.kind === 'id'
      ? key === null
      : order.kind === 'score'
        ? isScore(key)
        : order.kind === 'compound'
          ? Array.isArray(key) && key.length === order.types.length && key.every((part) => part === null || typeof part === 'string')
          : key === null || typeof key === 'string';
  if (!valid) throw bad('its value is no value of the order');
  return { id, key: key as Keyset['key'] };
}

/** The member a keyset's object has in the order's index (lex or compound). */
function keysetMember(order: PlanOrder, keyset: Keyset): Buffer {
  if (order.kind !== 'compound') return lexMemberBytes((keyset.key as string | null) ?? undefined, keyset.id);
  const parts = (keyset.key as ReadonlyArray<string | null>).map((value, i) => compoundPart(value ?? undefined, order.types[i] === '1'));
  return compoundMember(parts, keyset.id);
}

function isScore(text: unknown): text is string {
  if (text === 'inf') return true;
  if (typeof text !== 'string') return false;
  try {
    return Number.isFinite(numberCodec.decode(text));
  } catch {
    return false;
  }
}

/** A score bound as ZRANGE BYSCORE takes it, read back: its value and whether it is exclusive. */
function scoreBound(bound: ScriptArg): { value: number; open: boolean } {
  const text = String(bound);
  const open = text.startsWith('(');
  const body = open ? text.slice(1) : text;
  const value = body === '-inf' ? -Infinity : body === '+inf' || body === 'inf' ? Infinity : Number(body);
  return { value, open };
}

/**
 * Where a keyset lies against a window of the order: 'before' its start in the order (the page starts at the
 * window's start), 'past' its end (the page is empty), or 'inside'.
 */
function placeInWindow(
  plan: QueryPlan,
  order: PlanOrder & { kind: 'score' | 'lex' | 'compound' },
  after: ScriptArg,
): 'before' | 'inside' | 'past' {
  const window = plan.window!;
  let belowMin: boolean;
  let aboveMax: boolean;
  if (order.kind === 'score') {
    const value = scoreBound(after).value;
    const min = scoreBound(window.min);
    const max = scoreBound(window.max);
    belowMin = value < min.value || (value === min.value && min.open);
    aboveMax = value > max.value || (value === max.value && max.open);
  } else {
    // lex bounds (compound too): '-', '+', or '[' / '(' and the bytes; a lower bound is inclusive, an upper one exclusive
    const member = after as Buffer;
    const body = (bound: ScriptArg) => (Buffer.isBuffer(bound) ? bound.subarray(1) : undefined);
    const min = body(window.min);
    const max = body(window.max);
    belowMin = min !== undefined && Buffer.compare(member, min) < (order.desc ? 1 : 0);
    aboveMax = max !== undefined && Buffer.compare(member, max) >= 0;
  }
  if (order.desc) return aboveMax ? 'before' : belowMin ? 'past' : 'inside';
  return belowMin ? 'before' : aboveMax ? 'past' : 'inside';
}

/** The page request of a keyset page of `limit` objects; null when nothing can follow the keyset. */
export function keysetPage(plan: QueryPlan, keyset: Keyset | undefined, limit: number): PageRequest | null {
  const order = plan.order;
  if (!keyset) return { offset: 0, limit };
  if (order.kind === 'id') return { offset: 0, limit, afterId: keyset.id };
  const after = order.kind === 'score' ? (keyset.key as string) : keysetMember(order, keyset);
  const place = plan.window ? placeInWindow(plan, order, after) : 'inside';
  if (place === 'past') return null;
  if (place === 'before') return { offset: 0, limit };
  return { offset: 0, limit, afterId: keyset.id, after };
}
