import { escapeLex } from '../query/bounds';

const ABSENT = Buffer.from([0xff]);

/**
 * The member a sortable-string (lex) index holds for (value, id), as src/scripts/lua/indexes.lua builds it:
 * esc(value) \0\0 len(id) id, where esc turns \0 into \0\1 and an absent value is the byte \xFF (after every
 * UTF-8 string).
 */
export function lexMemberBytes(value: string | undefined, id: string): Buffer {
  return withLexId(lexMemberPrefix(value), id);
}

/** A lex member from its prefix (lexMemberPrefix) and the id: prefix len(id) id. */
export function withLexId(prefix: Buffer, id: string): Buffer {
  return Buffer.concat([prefix, Buffer.from([Buffer.byteLength(id)]), Buffer.from(id)]);
}

const SEPARATOR = Buffer.from([0, 0]);

/** The part of a lex member that does not depend on the id: esc(value) \0\0 (\xFF \0\0 when absent). */
export function lexMemberPrefix(value: string | undefined): Buffer {
  return Buffer.concat([value === undefined ? ABSENT : escapeLex(value), SEPARATOR]);
}
