-- remove-indexed.lua: delete one object of a model whose objects have index entries and nothing else beside
-- them: no memo (the model has no ttl or cap and is not expirable) and no relation to clean. remove.lua does
-- every other model; remove-indexed-many.lua many objects of such a model in one call.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the object's hash
-- KEYS[3]  the model's key base (index keys derive from it, same hash tag)
-- ARGV[1]  the id
-- SPEC     the model's part, bound into the source per model (src/mapper/indexed-removal.ts, through
--          src/scripts/bound-script.ts), never sent: SPEC[1] f; then f fields, those the object's entries depend
--          on, read with one HMGET; then five values per index of the model: kind ('S', 'Z', 'L', 'U'), the entry
--          key's stem after the base, the position of the value field and of the scope field among the f fields
--          (0: none), and '1' when -0 reads as 0 (a numeric unique value, a numeric scope value)
-- Returns: 1 when the object was in `all`, else 0.
-- Guarantees: the hash, its `all` entry and every index and unique entry disappear together (invariants 1 to
-- 4); the entries are found from the stored values (read here, not the client's copy), as indexes.lua's
-- entryOf finds them, and a unique value is released only by its owner.
--!include key-types.lua
--!include indexes.lua
--!include indexed-removal.lua

local all, key, base, id = KEYS[1], KEYS[2], KEYS[3], ARGV[1]
-- every key written is checked first (key-types.lua): refused, the call writes nothing
expectType(all, 'zset')
expectType(key, 'hash')
indexedEntries(key, base, id, expectCommandKey)
indexedEntries(key, base, id, redis.call)
redis.call('DEL', key)
return redis.call('ZREM', all, id)
