-- ids.lua: what an id may be, as src/keys/id-format.ts says; a library inlined into repair-object.lua.
-- KEYS/ARGV: none of its own.

-- Whether `id` is one a sequence draws (isSequenceId): a decimal integer from 1 to 2^53 - 1 without leading
-- zeros. A sequence never draws past 2^53 - 1 (sequence-ids.lua), where a Lua number (and a zset score) no
-- longer holds every integer: such an id would be scored and counted as another.
local function isSequenceId(id)
  if not string.match(id, '^[1-9]%d*$') then
    return false
  end
  return #id < 16 or (#id == 16 and id <= '9007199254740991')
end
