-- indexed-removal.lua: finding the entries of one object of a model whose objects have index entries and nothing
-- else beside them; a library inlined into remove-indexed.lua and remove-indexed-many.lua, after the SPEC the
-- client binds into their source (src/store/indexed-removal.ts says what it holds). Needs key-types.lua and
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
    -- without a value, the object is in the attribute's `nil` set, whose stem the fifth value holds
    return 'SREM', base .. (value and stem .. value or SPEC[at + 4]), id
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

-- Removes object `id` (its hash `key`) with its `all` entry and its index and unique entries, all or none, with
-- as few calls, tables and functions as it can: each costs Redis time on every remove (a function a script
-- defines is made anew on every call, about 0.2 us each, so of key-types.lua this one uses refuseOtherType alone,
-- at its one place of refusal). The stored values are read first (a hash of another type is refused
-- by the read), then the `all` entry goes (refused whole, it writes nothing), then the set entries and unique
-- values in index order, each with a command Redis refuses whole on a key of another type; the sorted entries
-- wait until every set entry is gone, the first with the same guard and the others with their keys' types
-- checked while a refusal could still put everything back (a removed sorted entry could be put back only with
-- its score). A refusal puts back what came before it (SADD, HSET and ZADD put back a set entry, a unique
-- value and the `all` entry exactly: an `all` entry scores a sequence id by itself, any other 0) and refuses
-- the call as key-types.lua does. The hash goes last. Returns 1 when the object was in `all`, else 0.
local function removeIndexedObject(all, key, base, id)
  local fieldCount = tonumber(SPEC[1])
  -- a refusal: { the error reply, the key, the type it should hold } (nil: none so far)
  local refused = nil
  local values = {}
  if fieldCount > 0 then
    values = redis.pcall('HMGET', key, unpack(SPEC, 2, 1 + fieldCount))
    if values.err then
      refused = { values, key, 'hash' }
    end
  else
    local found = redis.call('TYPE', key).ok
    if found ~= 'none' and found ~= 'hash' then
      refused = { { err = 'WRONGTYPE' }, key, 'hash' }
    end
  end
  -- 1 (it was in `all`), 0 or a refusal (which writes nothing)
  local listed = 0
  if not refused then
    listed = redis.pcall('ZREM', all, id)
    if listed ~= 1 and listed ~= 0 then
      refused, listed = { listed, all, 'zset' }, 0
    end
  end
  -- bit n-1 set: the n-th index's set entry or unique value was removed, up to the REMOVED_BITS-th index (a
  -- Lua number holds 53 bits exactly); past it, `more` (n -> true)
  local removed, bit, n, more = 0, 1, 1, nil
  local firstKey, firstMember, later = nil, nil, nil
  local at = 2 + fieldCount
  while not refused and SPEC[at] do
    local kind, stem, value = SPEC[at], SPEC[at + 1], values[tonumber(SPEC[at + 2])]
    -- whether this index's set entry or unique value was removed here
    local took = false
    -- (indexedEntryAt's work, written out: a call per entry costs Redis time on every remove)
    if kind == 'S' then
      -- the value's set, or without a value the attribute's `nil` set (its stem the fifth value)
      local entryKey = base .. (value and stem .. value or SPEC[at + 4])
      -- 1 (removed), 0 (it was not there) or a refusal
      local reply = redis.pcall('SREM', entryKey, id)
      if reply == 1 then
        took = true
      elseif reply ~= 0 then
        refused = { reply, entryKey, 'set' }
      end
    elseif kind == 'U' then
      if value then
        if SPEC[at + 4] == '1' and value == '-0' then
          value = '0'
        end
        local uniques = base .. stem
        local owner = redis.pcall('HGET', uniques, value)
        if type(owner) == 'table' and owner.err then
          refused = { owner, uniques, 'hash' }
        elseif owner == id then
          redis.call('HDEL', uniques, value)
          took = true
        end
      end
    else
      local entryKey = base .. stem
      local scopeAt = tonumber(SPEC[at + 3])
      if scopeAt > 0 then
        local scopeValue = values[scopeAt]
        if scopeValue and SPEC[at + 4] == '1' and scopeValue == '-0' then
          scopeValue = '0'
        end
        -- an object without a scope value is in no scoped index
        entryKey = scopeValue and entryKey .. scopeValue or nil
      end
      if entryKey then
        local member = kind == 'Z' and id or lexMember(value, id)
        if not firstKey then
          firstKey, firstMember = entryKey, member
        else
          local found = redis.call('TYPE', entryKey).ok
          if found ~= 'none' and found ~= 'zset' then
            refused = { { err = 'WRONGTYPE' }, entryKey, 'zset' }
          end
          later = later or {}
          later[#later + 1] = entryKey
          later[#later + 1] = member
        end
      end
    end
    if refused then
      break
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
  if not refused and firstKey then
    local reply = redis.pcall('ZREM', firstKey, firstMember)
    if reply ~= 1 and reply ~= 0 then
      refused = { reply, firstKey, 'zset' }
    elseif later then
      for i = 1, #later, 2 do
        redis.call('ZREM', later[i], later[i + 1])
      end
    end
  end
  if refused then
    -- put back what went before the refusal: the `all` entry, and the set entries and unique values of the
    -- indexes before SPEC position `at` whose bit is set
    if listed == 1 then
      redis.call('ZADD', all, string.find(id, '^%d+$') and id or 0, id)
    end
    local upTo = at
    at, bit, n = 2 + fieldCount, 1, 1
    while at < upTo do
      if (n <= REMOVED_BITS and removed % (2 * bit) >= bit) or (more and more[n]) then
        local value = values[tonumber(SPEC[at + 2])]
        if SPEC[at] == 'S' then
          redis.call('SADD', base .. (value and SPEC[at + 1] .. value or SPEC[at + 4]), id)
        else
          -- a unique value: its field in the unique hash named the object (the HDEL removed it)
          if SPEC[at + 4] == '1' and value == '-0' then
            value = '0'
          end
          redis.call('HSET', base .. SPEC[at + 1], value, id)
        end
      end
      at, bit, n = at + 5, 2 * bit, n + 1
    end
    -- the refusal as key-types.lua's refuseReply makes it
    local reply, refusedKey, expected = refused[1], refused[2], refused[3]
    if string.sub(reply.err, 1, 9) == 'WRONGTYPE' then
      refuseOtherType(refusedKey, expected, redis.call('TYPE', refusedKey).ok)
    end
    error(reply)
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
