-- save-context.lua: the model-wide part of a save's arguments (ttl, memo, version, cap and id form) as one table,
-- made once per model and kept, and an object's written values and values after a change; a library used by
-- save-object.lua, update-indexed.lua, save.lua, upsert.lua, save-many.lua and update-many.lua.
-- KEYS/ARGV: none of its own: the values and ARGV positions are the caller's.
-- Guarantees: the table a call gets holds exactly the values it gave (each compared, not only their join).

-- Contexts made so far (their values joined -> context): a model sends the same ones again and again, and a
-- library's top-level locals live from one call to the next. Callers change only capSpecs and capFields, which
-- are the same for every call of a model.
local contexts, contextCount = {}, 0

-- The model-wide part of save.lua's ARGV, read once per script call: ttl, memo, version, cap and id form.
local function saveContext(sequence, all, base, ttl, keepMemo, versionField, capKey, capKeep, capOrder, idForm)
  local text = sequence .. '\31' .. all .. '\31' .. base .. '\31' .. ttl .. '\31' .. keepMemo .. '\31' .. versionField
    .. '\31' .. capKey .. '\31' .. capKeep .. '\31' .. capOrder .. '\31' .. idForm
  local known = contexts[text]
  -- every value compared too (a key holding the separator could make two joins alike)
  if known then
    local given = known.given
    if given[1] == sequence and given[2] == all and given[3] == base and given[4] == ttl and given[5] == keepMemo
      and given[6] == versionField and given[7] == capKey and given[8] == capKeep and given[9] == capOrder
      and given[10] == idForm then
      return known
    end
  end
  if contextCount >= 1000 then
    contexts, contextCount = {}, 0
  end
  local stride, shard = string.match(idForm, '^(%d+):(%d+)$')
  known = {
    sequence = sequence,
    all = all,
    base = base,
    ttl = tonumber(ttl),
    keepMemo = keepMemo == '1' or keepMemo == 'E',
    expirable = keepMemo == 'e' or keepMemo == 'E',
    -- an update's: false when the model's objects never get a time to live ('0', '1')
    mayExpire = keepMemo ~= '0' and keepMemo ~= '1',
    versionField = versionField,
    capKeep = tonumber(capKeep),
    numeric = idForm ~= '0',
    stride = stride,
    shard = shard,
    given = { sequence, all, base, ttl, keepMemo, versionField, capKey, capKeep, capOrder, idForm },
  }
  -- capKey, capKeepLowest, and for a cap per value capPer and capPerNumeric (caps.lua)
  readCap(known, capKey, capOrder)
  contexts[text], contextCount = known, contextCount + 1
  return known
end

-- Where each part of one object's change starts in ARGV, from `countAt` on (save.lua's header): setCount, then
-- setCount field/value pairs from setFrom; delCount, then delCount fields from delFrom; the index specs the change
-- moves (readSpecs: specs, fields); parentCount, then parentCount pairs from parentsFrom + 1.
local function changeAt(countAt)
  local change = { setCount = tonumber(ARGV[countAt]), setFrom = countAt + 1 }
  change.delCount = tonumber(ARGV[change.setFrom + 2 * change.setCount])
  change.delFrom = change.setFrom + 2 * change.setCount + 1
  local specsAt = change.delFrom + change.delCount
  local specCount = tonumber(ARGV[specsAt])
  change.specs, change.fields = readSpecs(specsAt + 1, specCount)
  change.parentsFrom = specsAt + 1 + 4 * specCount
  change.parentCount = tonumber(ARGV[change.parentsFrom])
  return change
end

-- The change of save.lua's layout from ARGV[countAt] (its n) on: n field, value pairs to set; m fields to
-- remove; k index specs; p parent checks; q trim specs, which it sets on `model` (capSpecs, capFields).
-- Returns setFrom, setCount, delFrom, delCount, the specs and their fields (readSpecs), and parentsFrom.
local function readChange(model, countAt)
  local change = changeAt(countAt)
  local capSpecsAt = change.parentsFrom + 1 + 2 * change.parentCount
  model.capSpecs, model.capFields = readSpecs(capSpecsAt + 1, tonumber(ARGV[capSpecsAt]))
  return change.setFrom, change.setCount, change.delFrom, change.delCount, change.specs, change.fields, change.parentsFrom
end

-- field -> value of the n pairs at ARGV[setFrom ..]: what the save writes.
local function writtenValues(setFrom, setCount)
  local written = {}
  for i = 0, setCount - 1 do
    written[ARGV[setFrom + 2 * i]] = ARGV[setFrom + 2 * i + 1]
  end
  return written
end

-- field -> value of the object after the change, for the fields in `before` (its values before: readValues):
-- `written` (writtenValues) set, then the m fields at ARGV[delFrom ..] removed, as writeChanges does.
local function valuesAfter(before, written, delFrom, delCount)
  local after = {}
  for field, value in pairs(before) do
    after[field] = value
  end
  for field, value in pairs(written) do
    after[field] = value
  end
  for i = 0, delCount - 1 do
    after[ARGV[delFrom + i]] = false
  end
  return after
end
