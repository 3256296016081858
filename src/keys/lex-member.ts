import { escapeLex } from '../query/bounds';

const ABSENT = Buffer.from([0xff]);

/**
 * The member a sortable-string (lex) index holds for (value, id), as src/scripts/lua/indexes.lua builds it:
 * esc(value) \0\0 len(id) id, where esc turns \0 into \0\1 and an absent value is the byte \xFF (after every
 * UTF-8 string).
 */
export function lexMemberBytes(value: string | undefined, id: string): Buffer {
  const tail = Buffer.concat([Buffer.from([0, 0, Buffer.byteLength(id)]), Buffer.from(id)]);
  return Buffer.concat([value === undefined ? ABSENT : escapeLex(value), tail]);
}
