-- remove-indexed.lua: delete one object of a model whose objects have index entries and nothing else beside
-- them: no memo (the model has no ttl or cap and is not expirable) and no relation to clean. remove.lua does
-- every other model.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the object's hash
-- KEYS[3]  the model's key base (index keys derive from it, same hash tag)
-- ARGV[1]  the id
-- ARGV[2]  k; then k index specs (kind, attribute, scope, numeric: see indexes.lua), every index of the model
-- Returns: 1 when the object was in `all`, else 0.
-- Guarantees: the hash, its `all` entry and every index and unique entry disappear together (invariants 1 to
-- 4); the entries are found from the stored values (read here, not the client's copy), and a unique value is
-- released only by its owner.
--!include indexes.lua

local all, key, base, id = KEYS[1], KEYS[2], KEYS[3], ARGV[1]
local specs, fields = readSpecs(3, tonumber(ARGV[2]))
local values = readValues(key, fields)
for _, spec in ipairs(specs) do
  removeEntry(base, spec, values, id, nil)
end
redis.call('DEL', key)
return redis.call('ZREM', all, id)
