-- sequence-ids.lua: the text of a sequence id; a library inlined into the scripts that draw ids.
-- KEYS/ARGV: none of its own.
-- Guarantees: an id is the decimal integer the sequence drew (tostring would write 1e+14 from 10^14 on, so two
-- draws would name one object); a draw past 2^53 - 1, where a Lua number no longer holds every integer, is an
-- error before anything is written under it.

local function sequenceText(n)
  if n > 9007199254740991 then
    error('the id sequence is past 2^53 - 1: ids would no longer be exact')
  end
  return string.format('%d', n)
end
