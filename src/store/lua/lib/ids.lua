-- ids.lua: what an id may be, as src/keys/id-format.ts says; a library inlined into repair-object.lua and
-- repair-entries.lua.
-- KEYS/ARGV: none of its own.

-- Whether `id` can be an id (isValidId): 1 to 128 of [A-Za-z0-9_-], so that no id forms another key (no ':',
-- no braces, no glob characters). A key `<base>:obj:a:b` holds no object, whatever it holds.
local function isValidId(id)
  return #id >= 1 and #id <= 128 and string.match(id, '^[A-Za-z0-9_%-]+$') ~= nil
end

-- Whether `id` is one a sequence draws (isSequenceId): a decimal integer from 1 to 2^53 - 1 without leading
-- zeros. A sequence never draws past 2^53 - 1 (sequence-ids.lua), where a Lua number (and a zset score) no
-- longer holds every integer: such an id would be scored and counted as another.
local function isSequenceId(id)
  if not string.match(id, '^[1-9]%d*$') then
    return false
  end
  return #id < 16 or (#id == 16 and id <= '9007199254740991')
end
