-- remove.lua: delete one object with its index and unique entries, and what depends on it.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the object's hash
-- KEYS[3]  the model's key base (index keys derive from it, same hash tag)
-- ARGV[1]  the id
-- ARGV[2..] the model table (relations.lua): this model first, then the models that depend on it
-- Returns: 1 when the object was in `all` (even if its hash had just expired), else 0;
--          {'restrict', model number, foreign key} when objects still belong to it (nothing is written).
-- Guarantees: the hash, its memo, its `all` and `exp` entries and all its index entries disappear together
-- (invariants 1 to 4); the entries are found from the memo (only those that can be the object's own:
-- objects.lua's memoEntries), or else from the stored values; a unique value is released only by its owner;
-- onDelete rules and many-to-many memberships are applied in the same script (invariant 6; on Redis Cluster
-- only within one group: models of other groups live in other slots).
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include objects.lua
--!include lists.lua
--!include relations.lua

local all, id = KEYS[1], ARGV[1]
local models = readModels(2)
expectType(all, 'zset')
local existed = redis.call('ZSCORE', all, id) and 1 or 0
local problem = checkRemoval(models, 1, id, {})
if problem then
  return problem
end
removeTree(models, 1, id, {})
return existed
