-- place-members.lua: put objects at a position of an ordered many-to-many list (push, unshift, insertAt, move),
-- on both sides at once.
-- KEYS[1]  the owner's hash (read, never written);  KEYS[2] the owner's ordered list (a zset of positions)
-- KEYS[2+2i-1], KEYS[2+2i]  per object i: its hash (read, never written), and its side holding the owner's id
-- ARGV[1]  the owner's id;  ARGV[2] the position (0-based; -1: the end), counted among the members that stay
-- ARGV[3]  '1' when the objects' sides are ordered lists too, else '0'
-- ARGV[4]  'insert' | 'move' (one object, which must be a member already: its other side is not touched)
-- ARGV[5..] the objects' ids, each once, in the order they are placed
-- Returns: 1; {'missing', 'self'} or {'missing', 'other', id} when inserting and an object does not exist (no
--          hash at its key); {'absent'} when moving an object that is not a member. Nothing is written then.
-- Guarantees: both sides change together (invariant 6); an object already in the list is moved, never listed
-- twice; positions keep their order exactly (lists.lua renumbers the list when two neighbours' positions can no
-- longer be split). Every key is checked before the first write. On Redis Cluster the models share a group.
--!include key-types.lua
--!include indexes.lua
--!include lists.lua

local list, ownerId, at = KEYS[2], ARGV[1], tonumber(ARGV[2])
local otherOrdered, moving = ARGV[3] == '1', ARGV[4] == 'move'
local ids = { unpack(ARGV, 5) }
expectType(list, 'zset')
if moving then
  if not redis.call('ZSCORE', list, ids[1]) then
    return { 'absent' }
  end
else
  if not isHash(KEYS[1]) then
    return { 'missing', 'self' }
  end
  for i, id in ipairs(ids) do
    if not isHash(KEYS[1 + 2 * i]) then
      return { 'missing', 'other', id }
    end
    expectType(KEYS[2 + 2 * i], sideType(otherOrdered))
  end
end
local added = {}
for i, id in ipairs(ids) do
  if redis.call('ZREM', list, id) == 0 then
    added[#added + 1] = i
  end
end
insertMembers(list, at < 0 and redis.call('ZCARD', list) or at, ids)
for _, i in ipairs(added) do
  addMember(KEYS[2 + 2 * i], otherOrdered, ownerId)
end
return 1
