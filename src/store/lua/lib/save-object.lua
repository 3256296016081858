-- save-object.lua: creating or updating one object with its index and unique entries; a library inlined into
-- save.lua (one object) and save-many.lua (a chunk of new objects). Needs key-types.lua, indexes.lua,
-- objects.lua, pages.lua, caps.lua, sequence-ids.lua and save-context.lua before it.
-- KEYS/ARGV: none of its own. The object's fields, removed fields and parent checks are read from ARGV at the
-- positions the caller gives, in the layout save.lua's header describes (n, then n field/value pairs; m, then
-- m fields; p, then p pairs of foreign key field and parent object key prefix).
-- `model` holds what is the same for every object of the call:
--   sequence, all, base     the model's sequence, `all` zset and key base (KEYS of the calling script)
--   ttl                     create only: time to live in ms, or nil
--   keepMemo                create only: true to keep a memo of the object's index entries
--   expirable               create only: true for a model whose objects can expire (a create sweeps)
--   mayExpire               update only: false when the model's objects never get a time to live
--   versionField            the @Version field, '' for none
--   capKey, capKeep, capKeepLowest   the cap's index key ('' none), how many to keep, whether the lowest stay
--   capPer, capPerNumeric   a cap per value's `per` field (nil for a cap of the whole model; capKey is then the stem
--                           of its groups' keys, caps.lua's capGroupKey) and whether it holds numbers
--   capSpecs, capFields     a capped model's every index (readSpecs), set by the caller: a trim finds the entries
--                           of an evicted object without a memo from its stored values with them
--   numeric                 true when ids are sequence numbers (cap ties ordered numerically)
--   stride, shard           for the sequence of shard `shard` of a model sharded `stride` ways, else nil
-- Returns what save.lua returns: the id; false (the object to update is gone, or the id to create exists);
-- {'unique', attribute}; {'stale'}; {'relation', field}. A key of another type (key-types.lua) is an error.
-- Guarantees: every check runs before the first write, so a refused save writes nothing; the hash, its `all`
-- entry and every index and unique entry change together (invariants 1 to 5), computed from the values stored
-- before and after the write. A capped model is trimmed back to its top objects before it returns; with a cap per
-- value, the group the object is in after the write.

-- nil when the object may take the unique values and parents it writes, else the refusal: {'unique',
-- attribute} when a value is held by another live object (or, with `claimed` (attribute -> value -> true),
-- by an object created before it in the same call), {'relation', field} when a foreign key names a missing
-- parent (its removal, in remove.lua, checks the other way round). A composite unique's value is read from
-- `after` (the object's values after the write, when they are not all written: an update's), else `written`.
local function claimRefusal(base, id, written, specs, parentsFrom, claimed, after)
  for _, spec in ipairs(specs) do
    if isUnique(spec) then
      local value = uniqueValue(spec, spec.kind == 'M' and after or written)
      if value then
        if claimed and claimed[spec.attr] and claimed[spec.attr][value] then
          return { 'unique', spec.attr }
        end
        local owner = callOfType('hash', 'HGET', base .. ':uniq:' .. spec.attr, value)
        -- a key of another type than a hash is no object (as check() reads it): it holds no value
        if owner and owner ~= id and isHash(base .. ':obj:' .. owner) then
          return { 'unique', spec.attr }
        end
      end
    end
  end
  for p = 0, tonumber(ARGV[parentsFrom]) - 1 do
    local field = ARGV[parentsFrom + 1 + 2 * p]
    local parent = written[field]
    if parent and not isHash(ARGV[parentsFrom + 2 + 2 * p] .. parent) then
      return { 'relation', field }
    end
  end
  return nil
end

-- The part of expectSaveTypes' checks that is a create's own: the key of each entry the new object adds, given its
-- written values (field -> value). A new object has no entries before: the only key a create would find for
-- values before it, an unscoped sorted index's, is that of its entry whatever the values, so neither a table of
-- values after nor a second look-up of that key is needed (save-many.lua runs the check for every object of a
-- chunk; docs/bulk-operations.md, "Creates that go through save-many.lua").
local function expectNewEntryTypes(model, id, written, specs, seen)
  for _, spec in ipairs(specs) do
    eachEntry(model.base, spec, written, id, function(kind, key)
      expectType(key, entryKeyType(kind), seen)
    end)
  end
end

-- The group a cap per value trims after the write (capGroupKey, from the object's values after it) must be a
-- sorted set: it is read and written by the trim, also when the object's entry in it does not move.
local function expectGroupType(model, values, seen)
  if model.capPer then
    local group = capGroupKey(model, values)
    if group then
      expectType(group, 'zset', seen)
    end
  end
end

-- Refuses (key-types.lua) every key the save of object `id` writes that holds another type: the model's `all`,
-- `exp`, sequence and cap index, the object's hash and memo, and the index and unique keys of the entries it
-- adds and removes. Reads only, so it runs before the first write: save-many.lua and update-many.lua run it for
-- every object of the call before writing any. `seen` skips keys checked already. An update reads the
-- object's indexed values here (refused when its hash holds another type: no TYPE asked for it) and returns
-- them; it checks only the keys it writes: `all` only with a cap to trim (it is read alone otherwise, and a
-- purge of an expired object checks its own keys), the memo only when entries move, and the keys of the
-- entries that move. Returns those values (an empty table for a create) and the written values (writtenValues).
local function expectSaveTypes(model, mode, id, setFrom, setCount, delFrom, delCount, specs, fields, seen)
  local base = model.base
  if mode == 'c' or model.capKey ~= '' then
    expectType(model.all, 'zset', seen)
  end
  if model.capKey ~= '' and not model.capPer then
    expectType(model.capKey, 'zset', seen)
  end
  -- `exp` is read by a create's sweep and TTL, by an update's memo lookup and by a trim's sweep
  if model.ttl or model.expirable or model.capKey ~= '' or (mode == 'u' and model.mayExpire) then
    expectType(base .. ':exp', 'zset', seen)
  end
  local before = {}
  if mode == 'c' then
    if id == '' then
      expectType(model.sequence, 'string', seen)
    end
  else
    local key = base .. ':obj:' .. id
    if #specs > 0 then
      local stored = callOfType('hash', 'HMGET', key, unpack(fields))
      for i, field in ipairs(fields) do
        before[field] = stored[i]
      end
    else
      expectType(key, 'hash', seen)
    end
  end
  local written = writtenValues(setFrom, setCount)
  if mode == 'c' and delCount == 0 then
    expectNewEntryTypes(model, id, written, specs, seen)
    expectGroupType(model, written, seen)
    return before, written
  end
  local after = valuesAfter(before, written, delFrom, delCount)
  expectGroupType(model, after, seen)
  local moved = false
  for _, spec in ipairs(specs) do
    if mode == 'c' or not sameEntry(spec, before, after) then
      moved = true
      local function expectEntryType(kind, key)
        expectType(key, entryKeyType(kind), seen)
      end
      eachEntry(base, spec, before, id, expectEntryType)
      eachEntry(base, spec, after, id, expectEntryType)
    elseif isUnique(spec) then
      -- an unchanged unique value that the save writes again is still read (claimRefusal)
      if uniqueValue(spec, written) then
        expectType(base .. ':uniq:' .. spec.attr, 'hash', seen)
      end
    end
  end
  -- the memo's type, kept: it also tells the save whether the memo exists (no EXISTS asked again)
  local memoFound = nil
  if mode == 'u' and moved then
    local memo = base .. ':memo:' .. id
    if not (seen and seen[memo]) then
      memoFound = redis.call('TYPE', memo).ok
      refuseOtherType(memo, 'hash', memoFound)
      if seen then
        seen[memo] = true
      end
    end
  end
  return before, written, after, memoFound
end

-- mode 'c' | 'u'; id ('' on create takes the next sequence value); readVersion (update only); the ARGV
-- positions of the fields to set, the fields to remove and the parent checks; `specs`/`fields` from readSpecs.
-- `checked`: the caller ran expectSaveTypes for this object (and every object of its call) already.
local function saveObject(model, mode, id, readVersion, setFrom, setCount, delFrom, delCount, specs, fields, parentsFrom, checked)
  local all, base = model.all, model.base
  -- what the check read and computed (nil: read them below): an update's values before and after it, the
  -- written values, and the memo's type when entries move
  local read, written, computed, memoFound = nil, nil, nil, nil
  if not checked then
    read, written, computed, memoFound = expectSaveTypes(model, mode, id, setFrom, setCount, delFrom, delCount, specs, fields, {})
  end
  if mode == 'u' then
    -- A live object's hash exists (it always holds #id); one still in `all` without it has expired. A stored
    -- value the check read shows it exists (the read refused a key of another type) without an EXISTS.
    local stored = false
    if read then
      for _, value in pairs(read) do
        if value then
          stored = true
          break
        end
      end
    end
    if not stored and redis.call('EXISTS', base .. ':obj:' .. id) == 0 then
      if callOfType('zset', 'ZSCORE', all, id) then
        -- expired: swept, unless a key of another type keeps it (left to check() and repair())
        purgeObject(base, all, id, nil, nil, true)
      end
      return false
    end
    -- an object stored before @Version was added has no version field: read as '', as the client sends it
    if model.versionField ~= '' and (redis.call('HGET', base .. ':obj:' .. id, model.versionField) or '') ~= readVersion then
      return { 'stale' }
    end
  elseif id ~= '' and callOfType('zset', 'ZSCORE', all, id) then
    return false
  end

  written = written or writtenValues(setFrom, setCount)
  -- an update's composite unique values are of the values after it, which the parts not written keep
  local whole = nil
  if mode == 'u' then
    for _, spec in ipairs(specs) do
      if spec.kind == 'M' then
        whole = computed or valuesAfter(read or readValues(base .. ':obj:' .. id, fields), written, delFrom, delCount)
        break
      end
    end
  end
  local refusal = claimRefusal(base, id, written, specs, parentsFrom, nil, whole)
  if refusal then
    return refusal
  end

  local sequenced = id == ''
  if sequenced then
    id = drawSequenceId(model)
  end
  local key = base .. ':obj:' .. id
  local memo = base .. ':memo:' .. id
  local before = {}
  if mode == 'u' then
    -- nothing was written since the check read them
    before = read or readValues(key, fields)
    if not read then
      memo = #specs > 0 and memoOf(base, id, model.mayExpire) or nil
    elseif memoFound ~= 'hash' and not (memoFound and model.mayExpire and redis.call('ZSCORE', base .. ':exp', id)) then
      -- as memoOf, from the type the check found (nil: no entry moves, so the memo is not touched)
      memo = nil
    end
    writeChanges(key, setFrom, setCount, delFrom, delCount)
  else
    -- A hash or memo already under the id (another program's, or under a sequence set back) is replaced, not
    -- merged into; a key of another type there is refused and left as it is (a drawn id stays drawn, so the
    -- next create takes the next one). The memo is looked at when the object will keep one, or beside a hash.
    local found = redis.call('TYPE', key).ok
    refuseOtherType(key, 'hash', found)
    if model.keepMemo or found == 'hash' then
      local memoFound = redis.call('TYPE', memo).ok
      refuseOtherType(memo, 'hash', memoFound)
      if found == 'hash' or memoFound == 'hash' then
        redis.call('DEL', key, memo)
      end
    end
    if not model.keepMemo then
      memo = nil
    end
    callWithArgs('HSET', key, setFrom, setFrom + 2 * setCount - 1, '#id', id)
    -- sequence ids are scored by value, also one drawn ahead of the write (a sharded model's unique claims)
    redis.call('ZADD', all, model.numeric and id or 0, id)
  end

  -- the values after the write: as the check computed them for an update, the written ones for a create
  -- without removed fields (its hash holds exactly those and #id), else read back
  local after = before
  if #specs > 0 then
    if mode == 'u' and computed then
      after = computed
    elseif mode == 'c' and delCount == 0 then
      after = written
    else
      after = readValues(key, fields)
    end
  end
  for _, spec in ipairs(specs) do
    if mode == 'c' then
      addEntry(base, spec, after, id, memo)
    elseif not sameEntry(spec, before, after) then
      -- an entry sorted by value in the same key keeps its member (the id): ZADD alone moves its score
      if not (spec.kind == 'Z' and (spec.scope == '' or before[spec.scope] == after[spec.scope])) then
        removeEntry(base, spec, before, id, memo)
      end
      addEntry(base, spec, after, id, memo)
    end
  end
  if mode == 'c' then
    -- the TTL once the entries and the memo are written (setExpiry may delete the hash at once: objects.lua);
    -- an object whose deadline has already passed is then removed whole by its own create's sweep
    if model.ttl then
      setExpiry(base, key, id, model.ttl)
    end
    if model.expirable then
      sweepDue(base, all, 10)
    end
  end
  if model.capKey ~= '' then
    -- a cap per value trims the object's group (nil: the object is in none, or the write moved no group's entry)
    local capKey = capGroupKey(model, after)
    if capKey then
      trimCap(base, all, capKey, model.capKeep, model.capKeepLowest, model.numeric, model.capSpecs, model.capFields)
    end
  end
  return id
end
