import { escapeLex } from './lex-member';

/**
 * Members of a compound index (`@Index(['score', 'createdAt'])`), byte for byte as src/store/lua/lib/indexes.lua
 * builds them: each part's sortable form followed by \0\0, then len(id) id, all scored 0, so that ZRANGE BYLEX
 * orders them by the parts in turn and then by id. A number or Date part is 16 hex digits of its IEEE 754 bits
 * (big-endian, the sign bit flipped for positives, every bit for negatives: -0 is 0), a string part its UTF-8
 * bytes with each NUL written as \0\1, and an absent part the byte \xFF (after every other form).
 */

const SEPARATOR = Buffer.from([0, 0]);
const ABSENT = Buffer.from([0xff]);

/** A number as the 16 hex digits that sort as numbers do (the scripts' sortableNumber). */
export function sortableNumber(value: number): string {
  const buffer = Buffer.alloc(8);
  buffer.writeDoubleBE(value === 0 ? 0 : value);
  if (buffer[0] >= 0x80) for (let i = 0; i < 8; i++) buffer[i] = 0xff - buffer[i];
  else buffer[0] += 0x80;
  return buffer.toString('hex');
}

/**
 * One part's sortable form from its stored text: `numeric` parts (numbers, Dates as epoch ms) by number, others
 * escaped; undefined (absent, or a numeric part whose text is no number) is \xFF.
 */
export function compoundPart(stored: string | undefined, numeric: boolean): Buffer {
  if (stored === undefined) return ABSENT;
  if (!numeric) return escapeLex(stored);
  const number = Number(stored);
  return stored.trim() === '' || Number.isNaN(number) ? ABSENT : Buffer.from(sortableNumber(number));
}

/** The parts' forms each followed by \0\0: the prefix a range over the next part extends. */
export function compoundPrefix(parts: readonly Buffer[]): Buffer {
  return Buffer.concat(parts.flatMap((part) => [part, SEPARATOR]));
}

/** The whole member of object `id`. */
export function compoundMember(parts: readonly Buffer[], id: string): Buffer {
  return Buffer.concat([compoundPrefix(parts), Buffer.from([Buffer.byteLength(id)]), Buffer.from(id)]);
}

/** The id a compound member names: after its last \0\0, one length byte, then the id; undefined if malformed. */
export function idOfCompoundMember(member: Buffer): string | undefined {
  const at = member.lastIndexOf(SEPARATOR);
  if (at < 0) return undefined;
  const id = member.subarray(at + 3);
  return id.length === member[at + 2] ? id.toString() : undefined;
}
