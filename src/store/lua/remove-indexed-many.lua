-- remove-indexed-many.lua: delete many objects of one model (one key base) whose objects have index entries and
-- nothing else beside them, as remove-indexed.lua deletes one: the bulk path of removeMany.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the model's key base (object and index keys derive from it, same hash tag)
-- ARGV     the ids
-- SPEC     as remove-indexed.lua's, bound into the source per model (src/store/indexed-removal.ts)
-- Returns: one value per id, in order: 1 when the object was in `all`, else 0 (0 for an id given again).
-- Guarantees: each object goes as remove-indexed.lua removes it: its hash, `all` entry and every index and unique
-- entry, found from its stored values (read before anything is deleted), a unique value only if it owns it.
-- The deletes are gathered and sent as one command per key (gathered-removal.lua), in this one script: no
-- client sees the call half done (invariants 1 to 4 hold before and after it).
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include indexed-removal.lua
--!include batches.lua
--!include gathered-removal.lua

local all, base = KEYS[1], KEYS[2]
return removeGathered(all, base, 1, #ARGV, false, function(id, drop)
  indexedEntries(base .. ':obj:' .. id, base, id, drop)
end)
