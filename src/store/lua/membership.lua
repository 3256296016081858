-- membership.lua: add or remove one many-to-many membership, on both sides at once.
-- KEYS[1]  this object's hash;  KEYS[2] the related object's hash (both read when adding, never written)
-- KEYS[3]  this object's set of related ids;  KEYS[4] the related object's set holding this side's ids
-- ARGV[1]  'add' | 'remove';  ARGV[2] this object's id;  ARGV[3] the related object's id
-- ARGV[4]  '1' when KEYS[3] is an ordered list (a zset of positions, lists.lua), else '0'; ARGV[5] the same for
--          KEYS[4]
-- Returns: 1; or {'missing', 'self' | 'other'} when adding and an object does not exist: its key is missing or
--          holds another type than a hash (no object, as for a foreign key's parent: save-object.lua); nothing
--          is written then. A set of another type is the RRTYPE error of key-types.lua, naming it.
-- Guarantees: both sides change together (invariant 6); adding puts the id at the end of an ordered list, and
-- leaves one already there where it is. Every key is checked before the first write (the objects' keys and
-- both sides with TYPE), so a refused call has written nothing. On Redis Cluster the two models must share a
-- group.
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include lists.lua

local adding = ARGV[1] == 'add'
if adding then
  if not isHash(KEYS[1]) then
    return { 'missing', 'self' }
  end
  if not isHash(KEYS[2]) then
    return { 'missing', 'other' }
  end
end
local mineOrdered, otherOrdered = ARGV[4] == '1', ARGV[5] == '1'
expectType(KEYS[3], sideType(mineOrdered))
expectType(KEYS[4], sideType(otherOrdered))
if adding then
  addMember(KEYS[3], mineOrdered, ARGV[3])
  addMember(KEYS[4], otherOrdered, ARGV[2])
else
  removeMember(KEYS[3], mineOrdered, ARGV[3])
  removeMember(KEYS[4], otherOrdered, ARGV[2])
end
return 1
