import { escapeLex } from '../keys/lex-member';

/**
 * Range bounds in the forms ZRANGE BYSCORE and BYLEX take. Lex members are esc(value) \0\0 len(id) id with
 * esc turning \0 into \0\1 (src/store/lua/indexes.lua); lower lex bounds are always inclusive and upper ones
 * exclusive, so two bounds of one side compare by their bytes alone.
 */
export interface ScoreBound {
  readonly value: number;
  readonly inclusive: boolean;
}

export interface ScoreRange {
  min?: ScoreBound;
  max?: ScoreBound;
}

/** Keeps the tighter of two bounds; at equal values the exclusive one. */
export function tighterMin(a: ScoreBound | undefined, b: ScoreBound): ScoreBound {
  if (!a || b.value > a.value || (b.value === a.value && !b.inclusive)) return b;
  return a;
}

export function tighterMax(a: ScoreBound | undefined, b: ScoreBound): ScoreBound {
  if (!a || b.value < a.value || (b.value === a.value && !b.inclusive)) return b;
  return a;
}

function scoreText(bound: ScoreBound): string {
  const text = Object.is(bound.value, -0) ? '0' : String(bound.value);
  return bound.inclusive ? text : `(${text}`;
}

/** Absent values are scored +inf; a range never matches them ('(inf'), a full-order window does ('+inf'). */
export function scoreWindow(range: ScoreRange | undefined): { min: string; max: string } {
  if (!range) return { min: '-inf', max: '+inf' };
  return { min: range.min ? scoreText(range.min) : '-inf', max: range.max ? scoreText(range.max) : '(inf' };
}

const ZERO_ONE = Buffer.from([0, 1]);
const ZERO_ZERO = Buffer.from([0, 0]);
const ABSENT = Buffer.from([0xff]);

/** Inclusive lower / exclusive upper bodies of a lex range; undefined = unbounded. */
export interface LexRange {
  min?: Buffer;
  max?: Buffer;
}

export function lexLowerGte(value: string): Buffer {
  return escapeLex(value);
}
export function lexLowerGt(value: string): Buffer {
  return Buffer.concat([escapeLex(value), ZERO_ONE]);
}
export function lexUpperLt(value: string): Buffer {
  return escapeLex(value);
}
export function lexUpperLte(value: string): Buffer {
  return Buffer.concat([escapeLex(value), ZERO_ONE]);
}
/** Every string starting with `prefix` sorts below prefix + 0xFF (no UTF-8 byte is 0xFF). */
export function lexUpperPrefix(prefix: string): Buffer {
  return Buffer.concat([escapeLex(prefix), ABSENT]);
}
export function lexEquals(value: string): LexRange {
  const escaped = escapeLex(value);
  return { min: Buffer.concat([escaped, ZERO_ZERO]), max: Buffer.concat([escaped, ZERO_ONE]) };
}

export function tighterLexMin(a: Buffer | undefined, b: Buffer): Buffer {
  return !a || Buffer.compare(b, a) > 0 ? b : a;
}
export function tighterLexMax(a: Buffer | undefined, b: Buffer): Buffer {
  return !a || Buffer.compare(b, a) < 0 ? b : a;
}

/** Without an upper bound the absent sentinel (0xFF) is excluded unless the window is a whole order. */
export function lexWindow(range: LexRange | undefined): { min: Buffer | string; max: Buffer | string } {
  if (!range) return { min: '-', max: '+' };
  return {
    min: range.min ? Buffer.concat([Buffer.from('['), range.min]) : '-',
    max: Buffer.concat([Buffer.from('('), range.max ?? ABSENT]),
  };
}
