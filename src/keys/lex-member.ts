const ABSENT = Buffer.from([0xff]);
const ZERO_ONE = Buffer.from([0, 1]);

/** A value as lex members and bounds hold it: its UTF-8 bytes, each NUL written as \0\1 (so \0\0 ends it). */
export function escapeLex(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0) {
      parts.push(bytes.subarray(start, i), ZERO_ONE);
      start = i + 1;
    }
  }
  parts.push(bytes.subarray(start));
  return Buffer.concat(parts);
}

/**
 * The member a sortable-string (lex) index holds for (value, id), as src/store/lua/indexes.lua builds it:
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
