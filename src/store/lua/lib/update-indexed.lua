-- update-indexed.lua: save.lua's update of a live object whose change moves index entries and needs nothing else:
-- no unique value, version, foreign key or cap, and a model whose objects never get a time to live. The common
-- indexed update, made with the calls its data needs and few tables: saveObject (save-object.lua) does every
-- other save, and this one when the object shows no stored value. Needs key-types.lua, indexes.lua and
-- save-context.lua before it.
-- KEYS/ARGV: none of its own; the fields to set and remove are read from ARGV at the positions the caller gives,
-- in the layout save.lua's header describes.
-- Guarantees: those of saveObject: every key it writes is checked before the first write (the hash by the read
-- of its values, each moved entry's key and the memo by TYPE), so a refused update writes nothing; the hash and
-- the entries change together, computed from the values stored before the write and the fields written.

-- Returns the id when the update is made, nil when it is not this function's (saveObject then makes it, or
-- answers that the object is gone). `specs` and `fields` from readSpecs; `parentsFrom` as saveObject takes it.
local function updateIndexed(model, id, setFrom, setCount, delFrom, delCount, specs, fields, parentsFrom)
  if model.capKey ~= '' or model.versionField ~= '' or model.mayExpire or ARGV[parentsFrom] ~= '0' or #fields == 0 then
    return nil
  end
  for i = 1, #specs do
    -- a tag index has an entry per element: saveObject moves those
    if isUnique(specs[i]) or specs[i].kind == 'T' then
      return nil
    end
  end
  local base = model.base
  local key = base .. ':obj:' .. id
  -- a hash of another type is refused by the read; a stored value shows the object is live (no EXISTS)
  local stored = callOfType('hash', 'HMGET', key, unpack(fields))
  local before, after, live = {}, {}, false
  for i = 1, #fields do
    local value = stored[i]
    before[fields[i]], after[fields[i]] = value, value
    live = live or value ~= false
  end
  if not live then
    return nil
  end
  -- the values after the write, as writeChanges leaves them (a field read is never nil: false when absent)
  for at = setFrom, setFrom + 2 * setCount - 2, 2 do
    if after[ARGV[at]] ~= nil then
      after[ARGV[at]] = ARGV[at + 1]
    end
  end
  for at = delFrom, delFrom + delCount - 1 do
    if after[ARGV[at]] ~= nil then
      after[ARGV[at]] = false
    end
  end
  -- the entries that move, seven values each: spec, then kind, key and member before and after (false: none);
  -- every key checked once
  local moves, count, seen = nil, 0, {}
  for i = 1, #specs do
    local spec = specs[i]
    if not sameEntry(spec, before, after) then
      local oldKind, oldKey, oldMember = entryOf(base, spec, before, id)
      local newKind, newKey, newMember = entryOf(base, spec, after, id)
      if oldKind then
        expectType(oldKey, entryKeyType(oldKind), seen)
      end
      if newKind then
        expectType(newKey, entryKeyType(newKind), seen)
      end
      moves = moves or {}
      moves[count + 1], moves[count + 2], moves[count + 3], moves[count + 4] = spec, oldKind or false, oldKey, oldMember
      moves[count + 5], moves[count + 6], moves[count + 7] = newKind or false, newKey, newMember
      count = count + 7
    end
  end
  -- the memo's type, checked before the first write, also tells whether it exists
  local memo = nil
  if moves then
    memo = base .. ':memo:' .. id
    local found = redis.call('TYPE', memo).ok
    refuseOtherType(memo, 'hash', found)
    if found ~= 'hash' then
      memo = nil
    end
  end
  writeChanges(key, setFrom, setCount, delFrom, delCount)
  for at = 1, count, 7 do
    local spec, oldKind, oldKey, oldMember, newKind, newKey, newMember = unpack(moves, at, at + 6)
    -- an entry that keeps its key and member (sorted by value: the id) is moved by its ZADD alone
    if oldKind and not (newKind and oldKey == newKey and oldMember == newMember) then
      dropEntry(oldKind, oldKey, oldMember, id)
      if memo then
        redis.call('HDEL', memo, oldKind .. oldKey)
      end
    end
    if newKind then
      if newKind == 'S' then
        redis.call('SADD', newKey, newMember)
      else
        redis.call('ZADD', newKey, spec.kind == 'Z' and (after[spec.attr] or 'inf') or 0, newMember)
      end
      if memo then
        redis.call('HSET', memo, newKind .. newKey, newMember)
      end
    end
  end
  return id
end
