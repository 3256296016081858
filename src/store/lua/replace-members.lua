-- replace-members.lua: make the members of one many-to-many side exactly the given objects, on both sides at once.
-- KEYS[1]  the owner's hash (read, never written);  KEYS[2] the owner's set (or ordered list) of related ids
-- KEYS[3]  the related model's `all` (not read: declared so that, on a Cluster, models of different groups are
--          refused before anything runs)
-- KEYS[3+2i-1], KEYS[3+2i]  per new member i: its hash (read, never written), and its side holding the owner's id
-- ARGV[1]  the owner's id;  ARGV[2] '1' when KEYS[2] is an ordered list, else '0'
-- ARGV[3]  '1' when the members' sides are ordered lists, else '0'
-- ARGV[4]  the prefix of the members' sides (a dropped member's side is ARGV[4] .. its id)
-- ARGV[5..] the new members' ids, each once (in list order for an ordered list)
-- Returns: 1; or {'missing', 'self'} / {'missing', 'other', id} when an object does not exist (no hash at its
--          key): nothing is written then.
-- Guarantees: one step: dropped members lose the owner from their side, new ones gain it (at the end of an
-- ordered side), kept ones keep it; an ordered list holds the members in the given order. Every key is
-- checked before the first write (invariant 6 either way). On Redis Cluster the two models share a group.
--!include key-types.lua
--!include indexes.lua
--!include lists.lua

local mine, ownerId = KEYS[2], ARGV[1]
local ordered, otherOrdered, otherPrefix = ARGV[2] == '1', ARGV[3] == '1', ARGV[4]
local ids = { unpack(ARGV, 5) }
if not isHash(KEYS[1]) then
  return { 'missing', 'self' }
end
expectType(mine, sideType(ordered))
local wanted = {}
for i, id in ipairs(ids) do
  if not isHash(KEYS[2 + 2 * i]) then
    return { 'missing', 'other', id }
  end
  expectType(KEYS[3 + 2 * i], sideType(otherOrdered))
  wanted[id] = true
end
local current, held = sideMembers(mine, ordered), {}
local dropped = {}
for _, id in ipairs(current) do
  held[id] = true
  if not wanted[id] then
    dropped[#dropped + 1] = id
    expectType(otherPrefix .. id, sideType(otherOrdered))
  end
end
for _, id in ipairs(dropped) do
  removeMember(otherPrefix .. id, otherOrdered, ownerId)
end
redis.call('DEL', mine)
if ordered then
  insertMembers(mine, 0, ids)
else
  for start = 1, #ids, 1000 do
    redis.call('SADD', mine, unpack(ids, start, math.min(start + 999, #ids)))
  end
end
for i, id in ipairs(ids) do
  if not held[id] then
    addMember(KEYS[3 + 2 * i], otherOrdered, ownerId)
  end
end
return 1
