-- expire.lua: give one live object a time to live (or a new one).
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the object's hash
-- KEYS[3]  the model's key base (memo, `exp` and index keys derive from it, same hash tag)
-- ARGV[1]  the id;  ARGV[2] the time to live in ms
-- ARGV[3]  k; then k index specs (kind, attribute, scope, numeric): every index of the model
-- Returns: 1, or 0 when the object does not exist or has expired.
-- Guarantees: the hash's TTL, the `exp` entry and the memo of its index entries are set together, so that
-- once the hash expires the object is invisible and every entry it had can still be removed.
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include objects.lua

local all, key, base, id = KEYS[1], KEYS[2], KEYS[3], ARGV[1]
-- every key read or written is checked first (key-types.lua): refused, the call writes nothing
expectType(all, 'zset')
expectType(key, 'hash')
expectType(base .. ':exp', 'zset')
expectType(base .. ':memo:' .. id, 'hash')
if not redis.call('ZSCORE', all, id) or redis.call('EXISTS', key) == 0 then
  return 0
end
local ttl = tonumber(ARGV[2])
local specs, fields = readSpecs(4, tonumber(ARGV[3]))
-- the memo first, from the values: setExpiry may delete the hash at once (objects.lua)
writeMemo(base, specs, readValues(key, fields), id)
setExpiry(base, key, id, ttl)
return 1
