-- indexed-removal.lua: finding the entries of one object of a model whose objects have index entries and nothing
-- else beside them; a library inlined into remove-indexed.lua and remove-indexed-many.lua, after the SPEC the
-- client binds into their source (src/mapper/indexed-removal.ts says what it holds). Needs key-types.lua and
-- indexes.lua before it.
-- KEYS/ARGV: none of its own.
-- Guarantees: every index and unique entry of the object is named, found from the stored values (read here, not
-- the client's copy) as indexes.lua's entryOf finds them; a unique value is named only when the object owns it.

-- The object's stored values of SPEC's fields (one HMGET), by position; a hash of another type is refused by the
-- read (key-types.lua).
local function indexedValues(key)
  local fieldCount = tonumber(SPEC[1])
  if fieldCount == 0 then
    expectType(key, 'hash')
    return {}
  end
  return callOfType('hash', 'HMGET', key, unpack(SPEC, 2, 1 + fieldCount))
end

-- The entry of object `id` for the index whose five SPEC values start at `at`, from its stored `values`:
-- command (SREM, ZREM, or HDEL for a unique value), key and member; nil when it has none. A unique value is named
-- only when the object owns it: that is read (HGET), and a unique hash of another type refused by the read.
local function indexedEntryAt(at, values, base, id)
  local kind, stem, value, scopeAt, fold = SPEC[at], SPEC[at + 1], values[tonumber(SPEC[at + 2])], tonumber(SPEC[at + 3]), SPEC[at + 4] == '1'
  if kind == 'S' then
    if value then
      return 'SREM', base .. stem .. value, id
    end
  elseif kind == 'U' then
    if value then
      if fold and value == '-0' then
        value = '0'
      end
      local uniques = base .. stem
      if callOfType('hash', 'HGET', uniques, value) == id then
        return 'HDEL', uniques, value
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
      if not scopeValue then
        return nil
      end
      indexKey = indexKey .. scopeValue
    end
    return 'ZREM', indexKey, kind == 'Z' and id or lexMember(value, id)
  end
  return nil
end

-- Calls drop(command, entry key, member) for each index and unique entry of the object `id`, whose hash is
-- `key`: SREM or ZREM of its index entries, HDEL of each unique value it owns. The entries are found from the
-- stored values, read with one HMGET. Writes nothing itself; a hash or unique hash of another type is refused
-- (key-types.lua) when it is read.
local function indexedEntries(key, base, id, drop)
  local values = indexedValues(key)
  local at = 2 + tonumber(SPEC[1])
  while SPEC[at] do
    local command, entryKey, member = indexedEntryAt(at, values, base, id)
    if command then
      drop(command, entryKey, member)
    end
    at = at + 5
  end
end

-- The indexes whose removals removeIndexedObject keeps as bits of one number (a Lua number holds 53 bits).
local REMOVED_BITS = 50

-- Puts back what removeIndexedObject removed before a refusal, then refuses the call as callOfType does: the
-- `all` entry (when `listed`; an `all` entry scores a sequence id by itself, any other 0), and each set entry and
-- unique value of the indexes before SPEC position `upTo` whose bit is set in `removed` (the bit of the n-th
-- index is 2^(n-1)), which SADD and HSET put back exactly.
local function restoreIndexed(all, base, id, values, listed, removed, more, upTo, reply, key, expected)
  if listed == 1 then
    redis.call('ZADD', all, string.find(id, '^%d+$') and id or 0, id)
  end
  local at, bit, n = 2 + tonumber(SPEC[1]), 1, 1
  while at < upTo do
    if (n <= REMOVED_BITS and removed % (2 * bit) >= bit) or (more and more[n]) then
      if SPEC[at] == 'S' then
        local _, entryKey, member = indexedEntryAt(at, values, base, id)
        redis.call('SADD', entryKey, member)
      else
        -- a unique value: its field in the unique hash named the object (the HDEL removed it)
        local value = values[tonumber(SPEC[at + 2])]
        if SPEC[at + 4] == '1' and value == '-0' then
          value = '0'
        end
        redis.call('HSET', base .. SPEC[at + 1], value, id)
      end
    end
    at, bit, n = at + 5, 2 * bit, n + 1
  end
  refuseReply(reply, key, expected)
end

-- Removes object `id` (its hash `key`) with its `all` entry and its index and unique entries, all or none, with
-- as few calls and tables as it can: each costs Redis time on every remove. The stored values are read first
-- (a hash of another type is refused by the read), then the `all` entry goes (refused whole, it writes nothing),
-- then the set entries and unique values in index order, with a command Redis refuses whole on a key of another
-- type, a refusal putting back those before it (restoreIndexed); the sorted entries wait until every set entry
-- is gone, the first with the same guard and the others with their keys' types checked while a refusal could
-- still put everything back (a removed sorted entry could be put back only with its score). The hash goes last.
-- Returns 1 when the object was in `all`, else 0.
local function removeIndexedObject(all, key, base, id)
  local fieldCount = tonumber(SPEC[1])
  -- the stored values, or a refusal of a hash of another type (which writes nothing)
  local values = fieldCount > 0 and redis.pcall('HMGET', key, unpack(SPEC, 2, 1 + fieldCount)) or {}
  if values.err or fieldCount == 0 then
    values = indexedValues(key)
  end
  -- 1 (it was in `all`), 0 or a refusal (which writes nothing)
  local listed = redis.pcall('ZREM', all, id)
  if listed ~= 1 and listed ~= 0 then
    callOfType('zset', 'ZREM', all, id)
  end
  -- bit n-1 set: the n-th index's set entry or unique value was removed, up to the REMOVED_BITS-th index (a
  -- Lua number holds 53 bits exactly); past it, `more` (n -> true)
  local removed, bit, n, more = 0, 1, 1, nil
  local sortedKey, sortedMember, later = nil, nil, nil
  local at = 2 + fieldCount
  while SPEC[at] do
    local kind = SPEC[at]
    -- whether this index's set entry or unique value was removed here
    local took = false
    if kind == 'S' then
      -- indexedEntryAt's work for a set entry, written out: a call per entry costs Redis time on every remove
      local value = values[tonumber(SPEC[at + 2])]
      if value then
        local entryKey = base .. SPEC[at + 1] .. value
        -- 1 (removed), 0 (it was not there) or a refusal
        local reply = redis.pcall('SREM', entryKey, id)
        if reply == 1 then
          took = true
        elseif reply ~= 0 then
          restoreIndexed(all, base, id, values, listed, removed, more, at, reply, entryKey, 'set')
        end
      end
    elseif kind == 'U' then
      local value = values[tonumber(SPEC[at + 2])]
      if value then
        if SPEC[at + 4] == '1' and value == '-0' then
          value = '0'
        end
        local uniques = base .. SPEC[at + 1]
        local owner = redis.pcall('HGET', uniques, value)
        if type(owner) == 'table' and owner.err then
          restoreIndexed(all, base, id, values, listed, removed, more, at, owner, uniques, 'hash')
        end
        if owner == id then
          redis.call('HDEL', uniques, value)
          took = true
        end
      end
    else
      local command, entryKey, member = indexedEntryAt(at, values, base, id)
      if command then
        if not sortedKey then
          sortedKey, sortedMember = entryKey, member
        else
          local found = redis.call('TYPE', entryKey).ok
          if found ~= 'none' and found ~= 'zset' then
            restoreIndexed(all, base, id, values, listed, removed, more, at, { err = 'WRONGTYPE' }, entryKey, 'zset')
          end
          later = later or {}
          later[#later + 1] = entryKey
          later[#later + 1] = member
        end
      end
    end
    if took then
      if n <= REMOVED_BITS then
        removed = removed + bit
      else
        more = more or {}
        more[n] = true
      end
    end
    at, bit, n = at + 5, 2 * bit, n + 1
  end
  if sortedKey then
    local reply = redis.pcall('ZREM', sortedKey, sortedMember)
    if reply ~= 1 and reply ~= 0 then
      restoreIndexed(all, base, id, values, listed, removed, more, at, reply, sortedKey, 'zset')
    end
    if later then
      for i = 1, #later, 2 do
        redis.call('ZREM', later[i], later[i + 1])
      end
    end
  end
  redis.call('DEL', key)
  return listed
end

-- The entries indexedEntries names for the object, as a list of { command, key, member }, with the type of every
-- key they write checked (key-types.lua) while they are found: applied after this (applyDrops), they are
-- written all or none, and the stored values are read once.
local function checkedIndexedEntries(key, base, id)
  local drops = {}
  indexedEntries(key, base, id, function(command, entryKey, member)
    expectCommandKey(command, entryKey)
    drops[#drops + 1] = { command, entryKey, member }
  end)
  return drops
end

-- Writes the entries of checkedIndexedEntries.
local function applyDrops(drops)
  for i = 1, #drops do
    local drop = drops[i]
    redis.call(drop[1], drop[2], drop[3])
  end
end
