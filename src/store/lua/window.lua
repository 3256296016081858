-- window.lua: a query one index window answers (a range of one sorted index, alone or with an equality on the
-- scope of a composite index, in id order), read without query.lua's libraries, temporary keys or sweep.
-- KEYS[1]  the window's index: a score index (`<base>:idx:...`) or a lex index (`<base>:lex:...`)
-- KEYS[2]  the model's `exp` zset (id -> the time, ms, its object expires); same hash tag as KEYS[1]
-- ARGV[1]  'ids' | 'count'
-- ARGV[2]  'Z' (ZRANGE BYSCORE) | 'L' (ZRANGE BYLEX)
-- ARGV[3]  min, ARGV[4] max, in the form that ZRANGE BYSCORE / BYLEX takes
-- Returns: false when the earliest `exp` entry's time has come by the server's clock (the same test as
--          objects.lua's sweepDue): the caller then runs query.lua, which sweeps the due objects first. Otherwise
--          'count' the number of ids in the window; 'ids' the window's ids in one string, separated by commas,
--          in the window's order ('' when it is empty): the client splits them and puts them in id order (one
--          bulk string costs the client a small part of what parsing one bulk string per id does; ids never
--          hold a comma, see src/keys/id-format.ts).
-- Guarantees: reads one consistent state (the script is atomic). Index entries are written and removed with
-- their object, in one script, so while no object of the model is due the window holds the ids of live
-- objects only, which is what query.lua would return for the same where. A key of another type is refused by
-- name (key-types.lua).
-- Flags: no-writes (a read: FCALL_RO)
--!include key-types.lua

local index, exp = KEYS[1], KEYS[2]
local mode, byScore, min, max = ARGV[1], ARGV[2] == 'Z', ARGV[3], ARGV[4]

-- it writes nothing: each key's type is checked by its read (key-types.lua), with no TYPE asked
local first = callOfType('zset', 'ZRANGE', exp, 0, 0, 'WITHSCORES')
if first[2] then
  local time = redis.call('TIME')
  if tonumber(first[2]) <= tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) then
    return false
  end
end

if mode == 'count' then
  return callOfType('zset', byScore and 'ZCOUNT' or 'ZLEXCOUNT', index, min, max)
end

local members = callOfType('zset', 'ZRANGE', index, min, max, byScore and 'BYSCORE' or 'BYLEX')
if not byScore then
  -- lex members are esc(value) \0\0 len(id) id (indexes.lua): the id is what follows the length byte
  for m = 1, #members do
    members[m] = string.match(members[m], '%z%z.([^%z]*)$')
  end
end
return table.concat(members, ',')
