-- membership.lua: add or remove one many-to-many membership, on both sides at once.
-- KEYS[1]  this object's hash;  KEYS[2] the related object's hash (both read when adding, never written)
-- KEYS[3]  this object's set of related ids;  KEYS[4] the related object's set holding this side's ids
-- ARGV[1]  'add' | 'remove';  ARGV[2] this object's id;  ARGV[3] the related object's id
-- Returns: 1; or {'missing', 'self' | 'other'} when adding and an object does not exist: its key is missing or
--          holds another type than a hash (no object, as for a foreign key's parent: save-object.lua); nothing
--          is written then. A set of another type is the RRTYPE error of key-types.lua, naming it.
-- Guarantees: both sides change together (invariant 6). Every key is checked before the first write (the
-- objects' keys with TYPE, the other side's set with TYPE, this side's set by its own SADD or SREM, which
-- Redis refuses whole on a key of another type), so a refused call has written nothing. On Redis Cluster the
-- two models must share a group.
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua

local adding = ARGV[1] == 'add'
if adding then
  if not isHash(KEYS[1]) then
    return { 'missing', 'self' }
  end
  if not isHash(KEYS[2]) then
    return { 'missing', 'other' }
  end
end
local command = adding and 'SADD' or 'SREM'
expectType(KEYS[4], 'set')
callOfType('set', command, KEYS[3], ARGV[3])
redis.call(command, KEYS[4], ARGV[2])
return 1
