-- indexes.lua: the index entries of one object; a library inlined into save.lua and remove.lua. Needs
-- composed-entries.lua (tag and compound entries) and spec-lists.lua (readSpecs) before it.
-- KEYS/ARGV: none of its own. An index spec is four ARGV strings: kind, attribute field, scope field ('' = none),
-- and which of the two hold numbers ('a', 's', 'as' or ''): a number's stored form keeps -0 as '-0' so that it
-- round-trips, but as an index value (a unique value, a scope value) -0 is 0.
--   S  set per value       <base>:idx:<attr>:<value>                          member: id
--                          and, when the value is absent, <base>:nil:<attr>  member: id (absence queries)
--   Z  sorted by value     <base>:idx:<attr>[@<scope>:<scopeValue>]           member: id, score: value ('inf' when absent)
--   L  lexicographic       <base>:lex:<attr>[@<scope>:<scopeValue>]           member: esc(value) \0\0 len(id) id, score 0
--                          (esc turns \0 into \0\1; an absent value is \255, after every UTF-8 string)
--   U  unique              <base>:uniq:<attr>  hash field: value -> id
--   C  unique, case-folded <base>:uniq:<attr>  hash field: the `#ci:<attr>` value -> id
--   M  composite unique    <base>:uniq:<a>+<b>...  hash field: compositeValue of the parts -> id; its attribute
--                          is the parts' fields joined by '+', its numeric flags one '1' or '0' per part
--   T  tag (`each`)        <base>:idx:<attr>:<element>                        member: id, one set per string
--                          element of the JSON array the attribute holds; none: <base>:nil:<attr>
--   K  compound, ordered   <base>:lex:<a>+<b>...                              member: c1 \0\0 c2 \0\0 ... len(id) id,
--                          score 0; its attribute is the parts' fields joined by '+', its numeric flags one per
--                          part: '1' numbers and Dates (sortableNumber), '0' strings (esc(value)); absent: \255
-- Entries are always computed from values stored in the object's hash (read inside the calling script),
-- never from a client's copy: that is what keeps invariant 3 under concurrent writers.
-- Objects with a TTL also keep a memo (<base>:memo:<id>, a hash 'S'|'Z'|'U' .. key -> member) of the entries
-- they sit in, so that they can be removed after the hash itself has expired (see objects.lua); a recorded
-- entry is acted on only when it can be the object's own (isOwnEntry).
-- An object whose scope attribute is absent is in no scoped index; sorted indexes hold every object.

local function lexMember(value, id)
  local tail = '\0\0' .. string.char(#id) .. id
  if not value then
    return '\255' .. tail
  end
  return (string.gsub(value, '%z', '\0\1')) .. tail
end

local function canonical(value, numeric)
  if numeric and value == '-0' then
    return '0'
  end
  return value
end

local function sortedKey(base, spec, values)
  local key = base .. (spec.kind == 'L' and ':lex:' or ':idx:') .. spec.attr
  if spec.scope == '' then
    return key
  end
  local scopeValue = values[spec.scope]
  if not scopeValue then
    return nil
  end
  return key .. '@' .. spec.scope .. ':' .. canonical(scopeValue, spec.scopeNumeric)
end

-- A composite unique's value: each part's value (as a unique value: -0 is 0) with \0 written \0\1, joined by
-- \0\0 (src/model/index-descriptor.ts computes the same); nil when a part is absent, as SQL's NULL claims nothing.
local function compositeValue(spec, values)
  local parts = {}
  for i, field in ipairs(spec.parts) do
    local value = values[field]
    if not value then
      return nil
    end
    parts[i] = (string.gsub(canonical(value, spec.partNumeric[i]), '%z', '\0\1'))
  end
  return table.concat(parts, '\0\0')
end

local function uniqueValue(spec, values)
  if spec.kind == 'C' then
    return values['#ci:' .. spec.attr]
  elseif spec.kind == 'M' then
    return compositeValue(spec, values)
  end
  return canonical(values[spec.attr], spec.attrNumeric)
end

local function isUnique(spec)
  return spec.kind == 'U' or spec.kind == 'C' or spec.kind == 'M'
end

-- Whether `key` holds a hash (false when it is missing or of another type: written by something else).
local function isHash(key)
  return redis.call('TYPE', key).ok == 'hash'
end

-- The entry of object `id` for `spec`: kind ('S' set, 'Z' sorted set, 'U' unique hash), key and member;
-- nil when the object has none (absent set/unique value, absent scope value).
local function entryOf(base, spec, values, id)
  if spec.kind == 'S' then
    local value = values[spec.attr]
    if value then
      return 'S', base .. ':idx:' .. spec.attr .. ':' .. value, id
    end
    return 'S', base .. ':nil:' .. spec.attr, id
  elseif isUnique(spec) then
    local value = uniqueValue(spec, values)
    if value then
      return 'U', base .. ':uniq:' .. spec.attr, value
    end
  elseif spec.kind == 'K' then
    return 'Z', base .. ':lex:' .. spec.attr, compoundMember(spec, values, id)
  elseif spec.kind ~= 'T' then
    local key = sortedKey(base, spec, values)
    if key then
      if spec.kind == 'Z' then
        return 'Z', key, id
      end
      return 'Z', key, lexMember(values[spec.attr], id)
    end
  end
  return nil
end

-- Calls fn(kind, key, member) for each entry of object `id` for `spec`: entryOf's one entry, or a tag index's
-- set entry per element (an array without one: the `nil` set). Every caller that walks an object's entries goes
-- through here or entryOf (which finds no entry for a tag index).
local function eachEntry(base, spec, values, id, fn)
  if spec.kind == 'T' then
    local elements = tagElements(values[spec.attr])
    if #elements == 0 then
      fn('S', base .. ':nil:' .. spec.attr, id)
    end
    local stem = base .. ':idx:' .. spec.attr .. ':'
    for _, element in ipairs(elements) do
      fn('S', stem .. element, id)
    end
    return
  end
  local kind, key, member = entryOf(base, spec, values, id)
  if kind then
    fn(kind, key, member)
  end
end

-- Whether an entry a memo records (kind, key, member) can be an entry of object `id` of the model whose key
-- base is `base`: a key of an index kind the model can have, under its base (S: `<base>:idx:`, Z: `<base>:idx:`
-- or `<base>:lex:`, U: `<base>:uniq:`), and the object's own member (S and Z: the id; lex: ending with the id as
-- lexMember writes it; U: a value, which dropEntry releases only while it names the id; S also `<base>:nil:`, the
-- set of objects without a value). A memo is a hash anyone
-- can write: what else it records is not acted on. String compares only: no Redis call.
local function isOwnEntry(base, kind, key, member, id)
  local n = #base
  if string.sub(key, 1, n) ~= base then
    return false
  end
  local stem = string.sub(key, n + 1, n + 5)
  if kind == 'S' then
    return (stem == ':idx:' or stem == ':nil:') and member == id
  elseif kind == 'Z' then
    if stem == ':idx:' then
      return member == id
    end
    return stem == ':lex:' and #id < 256 and #member > #id + 2 and string.sub(member, -(#id + 3)) == '\0\0' .. string.char(#id) .. id
  elseif kind == 'U' then
    return string.sub(key, n + 1, n + 6) == ':uniq:'
  end
  return false
end

-- Removes one recorded entry; a unique value is released only by its owner.
local function dropEntry(kind, key, member, id)
  if kind == 'S' then
    redis.call('SREM', key, member)
  elseif kind == 'Z' then
    redis.call('ZREM', key, member)
  elseif redis.call('HGET', key, member) == id then
    redis.call('HDEL', key, member)
  end
end

-- The memo key of object `id` when it keeps a memo, else nil: when it has one, or has a time to live (an `exp`
-- entry; an object that had no entry when it was given its time to live has no memo key yet). `mayExpire`
-- false says the model's objects never get a time to live: no `exp` entry to look for.
local function memoOf(base, id, mayExpire)
  local memo = base .. ':memo:' .. id
  if redis.call('EXISTS', memo) == 1 or (mayExpire ~= false and redis.call('ZSCORE', base .. ':exp', id)) then
    return memo
  end
  return nil
end

-- `memo` is the object's memo key when it keeps one, else nil.
local function addEntry(base, spec, values, id, memo)
  eachEntry(base, spec, values, id, function(kind, key, member)
    if kind == 'S' then
      redis.call('SADD', key, member)
    elseif kind == 'U' then
      redis.call('HSET', key, member, id)
    elseif spec.kind == 'Z' then
      redis.call('ZADD', key, values[spec.attr] or 'inf', member)
    else
      redis.call('ZADD', key, 0, member)
    end
    if memo then
      redis.call('HSET', memo, kind .. key, member)
    end
  end)
end

local function removeEntry(base, spec, values, id, memo)
  eachEntry(base, spec, values, id, function(kind, key, member)
    dropEntry(kind, key, member, id)
    if memo then
      redis.call('HDEL', memo, kind .. key)
    end
  end)
end

-- Calls `command key` with ARGV[from .. to] appended, in chunks (Lua's unpack takes about 8000 values at most),
-- and the pair `leadA`, `leadB` (when given) ahead of the first chunk's values (no table made for the pair).
local function callWithArgs(command, key, from, to, leadA, leadB)
  for start = from, to, 1000 do
    local stop = math.min(start + 999, to)
    if leadA then
      redis.call(command, key, leadA, leadB, unpack(ARGV, start, stop))
      leadA = nil
    else
      redis.call(command, key, unpack(ARGV, start, stop))
    end
  end
  if leadA then
    redis.call(command, key, leadA, leadB)
  end
end

-- Writes a change to the hash `key`: HSET of the setCount field, value pairs at ARGV[setFrom ..], HDEL of the
-- delCount fields at ARGV[delFrom ..].
local function writeChanges(key, setFrom, setCount, delFrom, delCount)
  if setCount > 0 then
    callWithArgs('HSET', key, setFrom, setFrom + 2 * setCount - 1)
  end
  if delCount > 0 then
    callWithArgs('HDEL', key, delFrom, delFrom + delCount - 1)
  end
end

-- field -> stored value or false, for the given fields of hash `key`.
local function readValues(key, fields)
  local values = {}
  if #fields > 0 then
    local stored = redis.call('HMGET', key, unpack(fields))
    for i, field in ipairs(fields) do
      values[field] = stored[i]
    end
  end
  return values
end

local function sameEntry(spec, before, after)
  if spec.parts then
    for _, field in ipairs(spec.parts) do
      if before[field] ~= after[field] then
        return false
      end
    end
    return true
  end
  return before[spec.attr] == after[spec.attr]
    and (spec.scope == '' or before[spec.scope] == after[spec.scope])
    and (spec.kind ~= 'C' or before['#ci:' .. spec.attr] == after['#ci:' .. spec.attr])
end

-- Whether the entry of `spec` depends on the value of `field` (its attribute, scope, or a composite's part).
local function specReads(spec, field)
  if spec.parts then
    for _, part in ipairs(spec.parts) do
      if part == field then
        return true
      end
    end
    return false
  end
  return spec.attr == field or spec.scope == field
end

-- Sets one field of object `id` to `value` (nil: removes it) and moves the entries of `specs` (the indexes
-- that depend on it), memo included; `fields` are the fields those entries read.
local function setField(base, id, field, value, specs, fields)
  local key = base .. ':obj:' .. id
  local memo = memoOf(base, id)
  local before = readValues(key, fields)
  if value == nil then
    redis.call('HDEL', key, field)
  else
    redis.call('HSET', key, field, value)
  end
  local after = readValues(key, fields)
  for _, spec in ipairs(specs) do
    removeEntry(base, spec, before, id, memo)
    addEntry(base, spec, after, id, memo)
  end
end

-- Removes one field of object `id`, moving the entries that depend on it (setField).
local function clearField(base, id, field, specs, fields)
  setField(base, id, field, nil, specs, fields)
end
