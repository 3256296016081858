-- release-unique.lua: frees the claim of a unique value an object of a sharded model no longer holds.
-- KEYS[1]  the value's claim key (src/keys/claim-keys.ts)
-- ARGV[1]  the id of the object letting the value go
-- ARGV[2]  optional: the exact claim ('<id> <ms>') to delete; a claim renewed or taken since (another time
--          or id) is then left alone. Absent: any claim of ARGV[1] is deleted
-- Returns: 1 when the claim was deleted, 0 when it was not this object's, not ARGV[2], or gone.
-- Guarantees: only a claim held by ARGV[1] (and equal to ARGV[2] when given) is deleted (compare-and-delete),
-- never another object's.
local claim = redis.call('GET', KEYS[1])
if claim and string.match(claim, '^(%S+)') == ARGV[1] and (ARGV[2] == nil or claim == ARGV[2]) then
  return redis.call('DEL', KEYS[1])
end
return 0
