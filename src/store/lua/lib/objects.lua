-- objects.lua: deleting whole objects and sweeping expired ones; a library inlined into the scripts that
-- write (save, remove, expire, sweep, query) and into repair-object.lua. Needs key-types.lua and indexes.lua
-- before it.
-- KEYS/ARGV: none of its own.
-- Keys: <base>:obj:<id> the hash, <base>:memo:<id> the memo of index entries (objects with a TTL only),
-- <base>:exp a zset id -> the time it expires (ms), for every object with a TTL.
-- Guarantees: an object is deleted with every index and unique entry it has, whether its hash still exists
-- (entries computed from its values) or has expired (entries read from its memo); of what a memo records, only
-- entries that can be the object's own are touched (memoEntries): never another model's or program's key.

local function nowMs()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

-- Gives object `id` a TTL: the hash expires at exactly the time its `exp` entry records. Call it after every
-- read of the hash and the memo's writing: a PEXPIREAT whose time has passed deletes the hash at once, inside
-- the script (Redis 7.0 compares the deadline with the clock, 7.2 with the script's start), as when Redis is
-- held up between the TIME here and the PEXPIREAT for longer than a 1 ms TTL. The object is then an expired
-- one like any other, whole in its memo.
local function setExpiry(base, key, id, ttl)
  -- %d: a Lua number passed as is would be formatted like 1e+14, which PEXPIREAT refuses
  local at = string.format('%d', nowMs() + ttl)
  redis.call('PEXPIREAT', key, at)
  redis.call('ZADD', base .. ':exp', at, id)
end

-- Calls drop(kind, key, member, id) for each index and unique entry that the memo of object `id` records and
-- that can be the object's own (indexes.lua's isOwnEntry: a key of the model's under `base`, the object's
-- member); returns whether the object has a memo. Anything else a memo records (a key of another model or
-- program, another object's member: written by hand) is skipped, neither checked nor dropped. Every reader of
-- memos goes through here. Writes nothing itself.
local function memoEntries(base, id, drop)
  local recorded = redis.call('HGETALL', base .. ':memo:' .. id)
  for i = 1, #recorded, 2 do
    local field = recorded[i]
    local kind, key, member = string.sub(field, 1, 1), string.sub(field, 2), recorded[i + 1]
    if isOwnEntry(base, kind, key, member, id) then
      drop(kind, key, member, id)
    end
  end
  return #recorded > 0
end

-- Calls drop(kind, key, member, id) for each index and unique entry of object `id`: the entries its memo
-- records, or, when it has none and `specs`/`fields` are given (every index of the model), those computed from
-- its stored values. Writes nothing itself.
local function objectEntries(base, id, specs, fields, drop)
  if memoEntries(base, id, drop) then
    return
  end
  if specs and #specs > 0 then
    local values = readValues(base .. ':obj:' .. id, fields)
    for _, spec in ipairs(specs) do
      eachEntry(base, spec, values, id, function(kind, key, member)
        drop(kind, key, member, id)
      end)
    end
  end
end

-- The first key purgeObject(base, all, id, specs, fields) writes that holds another type than its own, with the
-- type it should hold and the one it holds (key-types.lua); nil when none does. Reads only.
local function otherTypeToPurge(base, all, id, specs, fields)
  local keys = { all, 'zset', base .. ':exp', 'zset', base .. ':memo:' .. id, 'hash' }
  if specs and #specs > 0 then
    keys[7], keys[8] = base .. ':obj:' .. id, 'hash'
  end
  -- two passes: the memo and the hash first, since the entries' keys are read from them
  local from = 1
  for pass = 1, 2 do
    for i = from, #keys, 2 do
      local found = redis.call('TYPE', keys[i]).ok
      if found ~= 'none' and found ~= keys[i + 1] then
        return keys[i], keys[i + 1], found
      end
    end
    if pass == 1 then
      from = #keys + 1
      objectEntries(base, id, specs, fields, function(kind, key)
        keys[#keys + 1], keys[#keys + 2] = key, entryKeyType(kind)
      end)
    end
  end
  return nil
end

-- Deletes object `id`: its entries, hash, memo and `all` and `exp` entries. `specs`/`fields` (every index of
-- the model) are used when there is no memo; without them an object with no memo only loses hash and `all`.
-- Every key it writes is checked first (key-types.lua): the object goes whole or not at all. A key of another
-- type refuses the call, or with `orLeave`, leaves the object as it is and returns nil: a sweep, a cap's trim
-- or a write that finds its object expired deletes an object the caller did not name, after writes of its
-- own, and leaves one it cannot delete whole to check() (which names the key) and repair().
local function purgeObject(base, all, id, specs, fields, orLeave)
  local key, expected, found = otherTypeToPurge(base, all, id, specs, fields)
  if key then
    if orLeave then
      return nil
    end
    refuseOtherType(key, expected, found)
  end
  objectEntries(base, id, specs, fields, dropEntry)
  redis.call('DEL', base .. ':obj:' .. id, base .. ':memo:' .. id)
  redis.call('ZREM', base .. ':exp', id)
  return redis.call('ZREM', all, id)
end

-- Deletes up to `max` objects whose time has come (max < 0: all of them); returns how many. `exp` of another
-- type is refused by its first read (key-types.lua): before any write of a script that sweeps first, and
-- checked before its first write by a script that sweeps after writing (save-object.lua, caps.lua's trim).
local function sweepDue(base, all, max)
  local due = callOfType('zset', 'ZRANGE', base .. ':exp', '-inf', nowMs(), 'BYSCORE', 'LIMIT', 0, max)
  local swept = 0
  for _, id in ipairs(due) do
    if redis.call('EXISTS', base .. ':obj:' .. id) == 0 then
      -- one with a key of another type stays due, named by check() (purgeObject's `orLeave`)
      if purgeObject(base, all, id, nil, nil, true) then
        swept = swept + 1
      end
    else
      -- still alive (its TTL was changed by hand): trust the hash's own TTL; the memo stays, kept in step by
      -- every save, so entries can still be found if the object is evicted by a cap or expires later
      local left = redis.call('PTTL', base .. ':obj:' .. id)
      if left < 0 then
        redis.call('ZREM', base .. ':exp', id)
      else
        redis.call('ZADD', base .. ':exp', string.format('%d', nowMs() + left), id)
      end
    end
  end
  return swept
end

-- Writes the memo of object `id` from scratch, from its stored values (used when it gets a TTL).
local function writeMemo(base, specs, values, id)
  local memo = base .. ':memo:' .. id
  redis.call('DEL', memo)
  for _, spec in ipairs(specs) do
    eachEntry(base, spec, values, id, function(kind, key, member)
      redis.call('HSET', memo, kind .. key, member)
    end)
  end
  return memo
end

-- Gives object `id`, just written by the calling script, a time to live of `ttl` ms (an update's, as expire.lua
-- gives one): its memo rewritten from its stored values with `specs` (every index of the model, readSpecs),
-- then its expiry. Nothing when the write left no object (a cap's trim evicted it). The memo's type is the
-- caller's to check before its first write.
local function expireWritten(base, id, ttl, specs, fields)
  local key = base .. ':obj:' .. id
  if redis.call('EXISTS', key) == 1 then
    writeMemo(base, specs, readValues(key, fields), id)
    setExpiry(base, key, id, ttl)
  end
end
