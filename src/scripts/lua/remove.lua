-- remove.lua: delete one object with its index and unique entries.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the object's hash
-- KEYS[3]  the model's key base (index keys derive from it, same hash tag)
-- ARGV[1]  the id
-- ARGV[2]  k; then k index specs (kind, attribute, scope): every index of the model
-- Returns: 1 when the object existed, else 0.
-- Guarantees: the hash, its `all` entry and all its index entries disappear together (invariants 1 to 4);
-- the entries to remove are found from the stored values, and a unique value is released only by its owner.
--!include indexes.lua

local all, key, base, id = KEYS[1], KEYS[2], KEYS[3], ARGV[1]
local specs, fields = readSpecs(3, tonumber(ARGV[2]))
local removed = redis.call('ZREM', all, id)
if removed == 1 and #specs > 0 then
  local values = readValues(key, fields)
  for _, spec in ipairs(specs) do
    removeEntry(base, spec, values, id)
  end
end
redis.call('DEL', key)
return removed
