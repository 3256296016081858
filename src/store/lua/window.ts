import { ModelKeys } from '../../keys/model-keys';
import { EntryScript } from '../entry-script';
import { sortRowsById } from '../id-order';
import type { ScriptArg } from '../query-plan';
import { scripts } from '../scripts';

/** window.lua: a query one index window answers, read without query.lua (see its header). */
export interface WindowInput {
  readonly keys: ModelKeys;
  readonly mode: 'ids' | 'count';
  /** 'Z': a score index read BYSCORE; 'L': a lex index read BYLEX. */
  readonly kind: 'Z' | 'L';
  /** The window's index key. */
  readonly key: string;
  /** Bounds as ZRANGE BYSCORE / BYLEX take them. */
  readonly min: ScriptArg;
  readonly max: ScriptArg;
}

/**
 * 'count': the number of ids in the window; 'ids': the window's ids in numeric (sequence id) order; undefined
 * when an object of the model is due to expire (the caller then runs query.lua, which sweeps it first).
 */
export const windowScript: EntryScript<WindowInput, string[] | number | undefined> = {
  function: () => scripts.window(),
  keys: ({ key, keys }) => [key, keys.expiring],
  args: ({ mode, kind, min, max }) => [mode, kind, min, max],
  reply(reply, { mode }) {
    if (reply === null || reply === undefined) return undefined;
    if (mode === 'count') return Number(reply);
    const text = String(reply);
    if (text === '') return [];
    return sortedIdList(text) ?? (sortRowsById(text.split(','), 1) as string[]);
  },
};

/** Longer ids may not be exact as doubles (2^53 has 16 digits). */
const MAX_DIGITS = 15;

/**
 * Comma-separated sequence ids in numeric order, read straight from the text: each id is parsed digit by
 * digit (no substring per id, no Number() of it), the numbers sorted natively and written back with String,
 * which gives the id itself for a canonical decimal id (no sign, no leading zero), what sequences produce.
 * Undefined when an id is not one of those of at most 15 digits: the caller splits and sorts in general.
 */
export function sortedIdList(text: string): string[] | undefined {
  const numbers = new Float64Array((text.length >> 1) + 1);
  let count = 0;
  let n = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 44;
    if (code === 44) {
      // ','
      if (digits === 0) return undefined;
      numbers[count++] = n;
      n = 0;
      digits = 0;
      continue;
    }
    const digit = code - 48;
    if (digit < 0 || digit > 9 || (digits === 1 && n === 0) || digits === MAX_DIGITS) return undefined;
    n = n * 10 + digit;
    digits++;
  }
  const sorted = numbers.subarray(0, count).sort();
  const ids = new Array<string>(count);
  for (let i = 0; i < count; i++) ids[i] = String(sorted[i]);
  return ids;
}
