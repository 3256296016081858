-- release-unique.lua: frees the claim of a unique value an object of a sharded model no longer holds.
-- KEYS[1]  the value's claim key (src/keys/claim-keys.ts)
-- ARGV[1]  the id of the object letting the value go
-- Returns: 1 when the claim was deleted, 0 when it was not this object's (or was gone).
-- Guarantees: only a claim held by ARGV[1] is deleted (compare-and-delete), never another object's.
local claim = redis.call('GET', KEYS[1])
if claim and string.match(claim, '^(%S+)') == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
