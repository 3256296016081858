-- indexed-removal.lua: finding the entries of one object of a model whose objects have index entries and nothing
-- else beside them; a library inlined into remove-indexed.lua and remove-indexed-many.lua, after the SPEC the
-- client binds into their source (src/mapper/indexed-removal.ts says what it holds). Needs key-types.lua and
-- indexes.lua before it.
-- KEYS/ARGV: none of its own.
-- Guarantees: every index and unique entry of the object is named, found from the stored values (read here, not
-- the client's copy) as indexes.lua's entryOf finds them; a unique value is named only when the object owns it.

-- Calls drop(command, entry key, member) for each index and unique entry of the object `id`, whose hash is
-- `key`: SREM or ZREM of its index entries, HDEL of each unique value it owns. The entries are found from the
-- stored values, read with one HMGET. Writes nothing itself.
local function indexedEntries(key, base, id, drop)
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
        drop('SREM', base .. stem .. value, id)
      end
    elseif kind == 'U' then
      if value then
        if fold and value == '-0' then
          value = '0'
        end
        local uniques = base .. stem
        expectType(uniques, 'hash')
        if redis.call('HGET', uniques, value) == id then
          drop('HDEL', uniques, value)
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
        drop('ZREM', indexKey, kind == 'Z' and id or lexMember(value, id))
      end
    end
  end
end
