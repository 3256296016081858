-- remove-indexed.lua: delete one object of a model whose objects have index entries and nothing else beside
-- them: no memo (the model has no ttl or cap and is not expirable) and no relation to clean. remove.lua does
-- every other model.
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
--!include indexes.lua

local all, key, base, id = KEYS[1], KEYS[2], KEYS[3], ARGV[1]
local fieldCount = tonumber(SPEC[1])
local values = {}
if fieldCount > 0 then
  values = redis.call('HMGET', key, unpack(SPEC, 2, 1 + fieldCount))
end

local at = 2 + fieldCount
while SPEC[at] do
  local kind, stem, value, scopeAt, fold = SPEC[at], SPEC[at + 1], values[tonumber(SPEC[at + 2])], tonumber(SPEC[at + 3]), SPEC[at + 4] == '1'
  at = at + 5
  if kind == 'S' then
    if value then
      redis.call('SREM', base .. stem .. value, id)
    end
  elseif kind == 'U' then
    if value then
      if fold and value == '-0' then
        value = '0'
      end
      local uniques = base .. stem
      if redis.call('HGET', uniques, value) == id then
        redis.call('HDEL', uniques, value)
      end
    end
  else
    local indexKey = base .. stem
    if scopeAt > 0 then
      local scopeValue = values[scopeAt]
      if scopeValue and fold and scopeValue == '-0' then
        scopeValue = '0'
      end
      -- an object without a scope value is in no scoped index
      indexKey = scopeValue and indexKey .. scopeValue or nil
    end
    if indexKey then
      redis.call('ZREM', indexKey, kind == 'Z' and id or lexMember(value, id))
    end
  end
end
redis.call('DEL', key)
return redis.call('ZREM', all, id)
