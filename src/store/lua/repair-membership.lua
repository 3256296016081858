-- repair-membership.lua: make one many-to-many membership two-sided, or remove it from both sides.
-- KEYS[1]  the owner model's `all`;  KEYS[2] the owner model's key base
-- KEYS[3]  the other model's `all`;  KEYS[4] the other model's key base
-- KEYS[5]  the owner's set (holding the other id);  KEYS[6] the other's set (holding the owner id)
-- ARGV[1]  the owner id;  ARGV[2] the other id
-- ARGV[3]  '1' when KEYS[5] is an ordered list (a zset of positions, lists.lua), else '0'; ARGV[4] the same for
--          KEYS[6]
-- Returns: 'completed' when both objects are live (both sets now hold the membership), else 'removed'.
-- Guarantees: invariant 6 for this pair, in one step; a member completed on an ordered list goes at its end. On Redis Cluster the two models must share a group.
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include lists.lua

-- Listed in `all` with a hash (a key of another type is no object).
local function live(all, base, id)
  return redis.call('ZSCORE', all, id) and isHash(base .. ':obj:' .. id)
end

local ownerOrdered, otherOrdered = ARGV[3] == '1', ARGV[4] == '1'
if live(KEYS[1], KEYS[2], ARGV[1]) and live(KEYS[3], KEYS[4], ARGV[2]) then
  addMember(KEYS[5], ownerOrdered, ARGV[2])
  addMember(KEYS[6], otherOrdered, ARGV[1])
  return 'completed'
end
removeMember(KEYS[5], ownerOrdered, ARGV[2])
removeMember(KEYS[6], otherOrdered, ARGV[1])
return 'removed'
