-- update-many.lua: apply the changes of a chunk of loaded objects of one model (one key base), each exactly as
-- save.lua (or, for a change nothing depends on, update-fields.lua) applies one.
-- KEYS[1]  the model's sequence (string; untouched by an update, passed as save.lua's)
-- KEYS[2]  the model's `all` zset
-- KEYS[3]  the model's key base `<prefix>:{<Model>}` (object, memo and index keys derive from it, same hash tag)
-- ARGV[1]  the @Version field ('' none)
-- ARGV[2]  the cap's index key ('' none), or for a cap per value the stem of its groups' keys (caps.lua);
--          ARGV[3] how many to keep; ARGV[4] 'asc' keeps the lowest, 'desc' the highest, followed for a cap
--          per value by '@', the field of `per` and '#' when it holds numbers ('desc@userId': readCap)
-- ARGV[5]  the id form, as save.lua's ARGV[10] ('0' given ids, '1' sequence, 'n:s' shard s of n)
-- ARGV[6]  the memo flag, as save.lua's ARGV[4]: whether the model's objects can get a time to live ('e', 'E'),
--          so that an object without a memo key may still keep one (its `exp` entry is looked up), or never
--          ('0', '1': `exp` is neither read nor checked)
-- ARGV[7]  q; then q index specs: a capped model's every index (an object the trim evicts without a memo has
--          its entries found from its stored values), 0 for other models
-- then     c, the number of objects; then per object:
--            its id; the version the client read ('' without @Version);
--            n, then n field, value pairs to set (HSET); m, then m fields to remove (HDEL);
--            k, then k index specs (kind, attribute, scope, numeric: see indexes.lua): the indexes touching
--            the object's changed fields;
--            p, then p pairs (foreign key field, the parent model's object key prefix): the foreign keys the
--            object changes, each of which must name a live parent
-- Returns: an array of c outcomes, in order, each what save.lua returns for an update: the id; false when the
--          object does not exist or has expired (never revived; an expired one is swept); {'unique',
--          attribute}; {'stale'}; {'relation', field}.
-- Guarantees: the objects are applied one after the other in the given order, each with every check before its
-- first write, so a refused object writes nothing and does not stop the others, and a unique value freed by
-- an earlier object of the chunk may be taken by a later one, as with save() called in that order. Each
-- object's hash, index and unique entries change together, computed from the values stored before and after
-- its write (invariants 1 to 5); the whole chunk is one script, so no client sees part of it. A change that no
-- index, version or foreign key depends on is written as update-fields.lua writes it (the existence check,
-- then HSET/HDEL; a capped model is not trimmed, since no score moved); every other goes through
-- save-object.lua's saveObject, as save.lua runs it. Saving keeps each object's TTL.
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include objects.lua
--!include pages.lua
--!include caps.lua
--!include sequence-ids.lua
--!include save-context.lua
--!include save-object.lua

local model = saveContext(KEYS[1], KEYS[2], KEYS[3], '', ARGV[6], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5])
local capSpecCount = tonumber(ARGV[7])
model.capSpecs, model.capFields = readSpecs(8, capSpecCount)
local count = tonumber(ARGV[8 + 4 * capSpecCount])
local at = 9 + 4 * capSpecCount
local outcomes = {}

-- A change nothing else depends on: update-fields.lua's write, and save.lua's sweep of an expired object.
local function updateFields(id, setFrom, setCount, delFrom, delCount)
  local key = model.base .. ':obj:' .. id
  if redis.call('EXISTS', key) == 0 then
    if callOfType('zset', 'ZSCORE', model.all, id) then
      -- expired: swept, unless a key of another type keeps it (left to check() and repair())
      purgeObject(model.base, model.all, id, nil, nil, true)
    end
    return false
  end
  writeChanges(key, setFrom, setCount, delFrom, delCount)
  return id
end

local items = {}
for i = 1, count do
  local item = changeAt(at + 2)
  item.id, item.readVersion = ARGV[at], ARGV[at + 1]
  items[i] = item
  at = item.parentsFrom + 1 + 2 * item.parentCount
end

-- every key the call reads or writes is checked before its first write (key-types.lua): a call refused for a
-- key of another type writes nothing, not even the objects ahead of the one whose key it is
local seen = {}
for _, item in ipairs(items) do
  expectSaveTypes(model, 'u', item.id, item.setFrom, item.setCount, item.delFrom, item.delCount, item.specs, item.fields, seen)
end

for i, item in ipairs(items) do
  if #item.specs == 0 and item.parentCount == 0 and model.versionField == '' then
    outcomes[i] = updateFields(item.id, item.setFrom, item.setCount, item.delFrom, item.delCount)
  else
    outcomes[i] = saveObject(model, 'u', item.id, item.readVersion, item.setFrom, item.setCount, item.delFrom, item.delCount, item.specs, item.fields, item.parentsFrom, true)
  end
end
return outcomes
