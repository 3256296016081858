-- remove.lua: delete one object with its index and unique entries.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the object's hash
-- KEYS[3]  the model's key base (index keys derive from it, same hash tag)
-- ARGV[1]  the id
-- ARGV[2]  k; then k index specs (kind, attribute, scope, numeric): every index of the model
-- Returns: 1 when the object was in `all` (even if its hash had just expired), else 0.
-- Guarantees: the hash, its memo, its `all` and `exp` entries and all its index entries disappear together
-- (invariants 1 to 4); the entries are found from the memo, or else from the stored values; a unique value is
-- released only by its owner.
--!include indexes.lua
--!include objects.lua

local all, base, id = KEYS[1], KEYS[3], ARGV[1]
local specs, fields = readSpecs(3, tonumber(ARGV[2]))
return purgeObject(base, all, id, specs, fields)
