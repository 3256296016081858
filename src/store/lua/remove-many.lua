-- remove-many.lua: delete many objects of one model (one key base), each with its index entries and what depends
-- on it, as remove.lua deletes one: the bulk path of removeMany for a model with a memo or relations to clean.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the model's key base (object and index keys derive from it, same hash tag)
-- ARGV[1]  n, the number of ids
-- ARGV[2..n+1] the ids, in the order they are removed
-- ARGV[n+2..] the model table (relations.lua): this model first, then the models that depend on it
-- Returns: one value per id, in order, as remove.lua's reply for that id: 1 when the object was in `all` (even
--          if its hash had just expired), else 0; {'restrict', model number, foreign key} when objects still
--          belong to it (nothing of that object is written; the others are removed).
-- Guarantees: each object is checked and removed as remove.lua removes it (invariants 1 to 4 and 6, onDelete
-- rules for the whole cascade checked before its first write); the objects one after the other, in one script,
-- so that a refused object stops none of the others and no other client sees the call half done. When nothing
-- depends on the model's objects, each object's entries are read (from its memo, only those that can be its own,
-- or its stored values) before anything is deleted, and the deletes go as one command per key
-- (gathered-removal.lua); an id given twice is then removed once.
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include objects.lua
--!include lists.lua
--!include relations.lua
--!include batches.lua
--!include gathered-removal.lua

local all = KEYS[1]
local count = tonumber(ARGV[1])
local models = readModels(count + 2)
local model = models[1]
if #model.deps == 0 and #model.sides == 0 then
  -- nothing depends on these objects (a memo is all they have beside their entries): no rule to check, and
  -- their deletes are gathered per key
  local asKinds
  return removeGathered(all, model.base, 2, count + 1, true, function(id, drop)
    asKinds = asKinds or commandDrop(drop)
    objectEntries(model.base, id, model.specs, model.fields, asKinds)
  end)
end
-- every key each removal writes is checked before the first write (checkRemoval, key-types.lua): a call refused
-- for a key of another type writes nothing, not even the objects ahead of the one whose key it is
expectType(all, 'zset')
for i = 1, count do
  checkRemoval(models, 1, ARGV[1 + i], {})
end
local replies = {}
for i = 1, count do
  local id = ARGV[1 + i]
  -- live: in `all` with its hash (an object whose time had come is removed too, and reported missing)
  local existed = (redis.call('ZSCORE', all, id) and isHash(model.base .. ':obj:' .. id)) and 1 or 0
  local problem = checkRemoval(models, 1, id, {})
  if problem then
    replies[i] = problem
  else
    removeTree(models, 1, id, {})
    replies[i] = existed
  end
end
return replies
