-- update-fields.lua: write changed fields of one stored object that no index, unique value, version, foreign key
-- or cap depends on (the common update). save.lua does every other update.
-- KEYS[1]  the object's hash
-- KEYS[2]  the model's `all` zset (same hash tag)
-- ARGV[1]  the id
-- ARGV[2]  n; then n field, value pairs to set (HSET)
-- then     m; then m fields to remove (HDEL)
-- Returns: 1 when written; 0 when the object does not exist (nothing is written, it is never revived); -1 when
--          the object is still in `all` but its hash has expired (nothing is written: the caller runs save.lua,
--          which sweeps it). Integers, which a client reads for less than a string.
-- Guarantees: a live object's hash always exists (it holds #id), so the existence check and the write are one
-- atomic step: an update never brings back a removed or expired object. The hash's TTL is kept; no index
-- entry depends on these fields, so invariants 1 to 5 hold without touching other keys.
-- The update every application makes most: of key-types.lua it uses refuseOtherType alone (a function a script
-- defines is made anew on every call, about 0.2 us each).
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua

local key = KEYS[1]
-- one TYPE tells both whether the object exists and that its key holds a hash: a key of another type is no
-- object, and is refused (key-types.lua's refusal) before anything is written
local found = redis.call('TYPE', key).ok
if found ~= 'hash' then
  local refusedKey, expected = key, 'hash'
  if found == 'none' then
    local listed = redis.pcall('ZSCORE', KEYS[2], ARGV[1])
    if type(listed) ~= 'table' then
      return listed and -1 or 0
    end
    refusedKey, expected, found = KEYS[2], 'zset', redis.call('TYPE', KEYS[2]).ok
    if string.sub(listed.err, 1, 9) ~= 'WRONGTYPE' then
      error(listed)
    end
  end
  refuseOtherType(refusedKey, expected, found)
end
local setCount = tonumber(ARGV[2])
local delCount = tonumber(ARGV[3 + 2 * setCount])
writeChanges(key, 3, setCount, 4 + 2 * setCount, delCount)
return 1
