-- save.lua: create or update one object together with its index and unique entries.
-- KEYS[1]  the model's sequence (string)
-- KEYS[2]  the model's `all` zset
-- KEYS[3]  the model's key base `<prefix>:{<Model>}`; the object's hash (<base>:obj:<id>) and its index keys
--          derive from it and share its hash tag, so they are in the same Cluster slot
-- ARGV[1]  'c' create | 'u' update
-- ARGV[2]  the id; '' on create takes the next value of the sequence (and scores it in `all` by value;
--          given ids, such as uuids, are scored 0 and so ordered by id)
-- ARGV[3]  create only: the time to live in ms ('' for none); the object then keeps a memo and an `exp` entry
-- ARGV[4]  create only: '1' to keep a memo of the object's index entries (models with a TTL or a cap)
-- ARGV[5]  the @Version field ('' none); ARGV[6] update only: the version the client read
-- ARGV[7]  the cap's index key ('' none); ARGV[8] how many to keep; ARGV[9] 'asc' keeps the lowest
-- ARGV[10] '0' for given ids; '1' when ids are sequence numbers (cap ties ordered numerically); 'n:s' for the
--          sequence of shard s of a model sharded n ways: its k-th id is (k - 1) * n + s + 1, so that every shard
--          draws distinct numbers from its own sequence and an id names its shard ((id - 1) mod n)
-- ARGV[11] n; then n field, value pairs to set (HSET)
-- then     m; then m fields to remove (HDEL)
-- then     k; then k index specs (kind, attribute, scope, numeric: see indexes.lua): every index on create,
--          the indexes touching the changed fields on update
-- then     p; then p pairs (foreign key field, the parent model's object key prefix `<parentBase>:obj:`): a new
--          value of such a field must name a live parent object
-- Returns: the id; false when updating an object that does not exist or has expired (it is never revived;
--          an expired one is swept) or creating an id that exists; {'unique', attribute} when a unique value
--          belongs to another live object; {'stale'} when the stored version is not the one the client read;
--          {'relation', field} when a foreign key names a missing parent.
-- Guarantees: all checks run before the first write, so a refused save writes nothing; the hash, its `all`
-- entry and every index and unique entry change together (invariants 1 to 5); index entries are computed from
-- the values stored before and after the write, not from the client's copy. Saving keeps the object's TTL.
-- A capped model is trimmed back to its top objects in the same script.
--!include indexes.lua
--!include objects.lua
--!include pages.lua
--!include caps.lua

local mode, id = ARGV[1], ARGV[2]
local sequence, all, base = KEYS[1], KEYS[2], KEYS[3]

local ttl = tonumber(ARGV[3])
local keepMemo = ARGV[4] == '1'
local versionField, readVersion = ARGV[5], ARGV[6]
local capKey, capKeep, capKeepLowest, numeric = ARGV[7], tonumber(ARGV[8]), ARGV[9] == 'asc', ARGV[10] ~= '0'
local stride, shard = string.match(ARGV[10], '^(%d+):(%d+)$')
local setCount = tonumber(ARGV[11])
local setFrom = 12
local delCount = tonumber(ARGV[setFrom + 2 * setCount])
local delFrom = setFrom + 2 * setCount + 1
local specCount = tonumber(ARGV[delFrom + delCount])
local specs, fields = readSpecs(delFrom + delCount + 1, specCount)
local parentsFrom = delFrom + delCount + 1 + 4 * specCount

if mode == 'u' then
  -- A live object's hash exists (it always holds #id); one still in `all` without it has expired.
  if redis.call('EXISTS', base .. ':obj:' .. id) == 0 then
    if redis.call('ZSCORE', all, id) then
      purgeObject(base, all, id, nil, nil)
    end
    return false
  end
  if versionField ~= '' and redis.call('HGET', base .. ':obj:' .. id, versionField) ~= readVersion then
    return { 'stale' }
  end
elseif id ~= '' and redis.call('ZSCORE', all, id) then
  return false
end

-- Unique values must be free (or held by this object, or by an object that no longer exists).
local written = {}
for i = 0, setCount - 1 do
  written[ARGV[setFrom + 2 * i]] = ARGV[setFrom + 2 * i + 1]
end
for _, spec in ipairs(specs) do
  if isUnique(spec) then
    local value = uniqueValue(spec, written)
    if value then
      local owner = redis.call('HGET', base .. ':uniq:' .. spec.attr, value)
      if owner and owner ~= id and redis.call('EXISTS', base .. ':obj:' .. owner) == 1 then
        return { 'unique', spec.attr }
      end
    end
  end
end

-- A foreign key being set must name a live parent (its removal, in remove.lua, checks the other way round).
for p = 0, tonumber(ARGV[parentsFrom]) - 1 do
  local field = ARGV[parentsFrom + 1 + 2 * p]
  local parent = written[field]
  if parent and redis.call('EXISTS', ARGV[parentsFrom + 2 + 2 * p] .. parent) == 0 then
    return { 'relation', field }
  end
end

local sequenced = id == ''
if sequenced then
  id = redis.call('INCR', sequence)
  if stride then
    id = (id - 1) * tonumber(stride) + tonumber(shard) + 1
  end
  id = tostring(id)
end
local key = base .. ':obj:' .. id
local memo = base .. ':memo:' .. id
local before = {}
if mode == 'u' then
  before = readValues(key, fields)
  if #specs == 0 or redis.call('EXISTS', memo) == 0 then
    memo = nil
  end
  if setCount > 0 then
    callWithArgs('HSET', key, setFrom, setFrom + 2 * setCount - 1)
  end
  if delCount > 0 then
    callWithArgs('HDEL', key, delFrom, delFrom + delCount - 1)
  end
else
  if not sequenced then
    -- a given id (uuid): replace any stray hash or memo rather than merge into it
    redis.call('DEL', key, memo)
  end
  if not keepMemo then
    memo = nil
  end
  callWithArgs('HSET', key, setFrom, setFrom + 2 * setCount - 1, { '#id', id })
  redis.call('ZADD', all, sequenced and id or 0, id)
  if ttl then
    setExpiry(base, key, id, ttl)
    sweepDue(base, all, 10)
  end
end

local after = #specs > 0 and readValues(key, fields) or before
for _, spec in ipairs(specs) do
  if mode == 'c' then
    addEntry(base, spec, after, id, memo)
  elseif not sameEntry(spec, before, after) then
    removeEntry(base, spec, before, id, memo)
    addEntry(base, spec, after, id, memo)
  end
end
if capKey ~= '' then
  trimCap(base, all, capKey, capKeep, capKeepLowest, numeric)
end
return id
