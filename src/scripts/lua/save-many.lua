-- save-many.lua: create a chunk of new objects of one model, each exactly as save.lua creates one.
-- KEYS[1]  the model's sequence (string)
-- KEYS[2]  the model's `all` zset
-- KEYS[3]  the model's key base `<prefix>:{<Model>}` (object, memo and index keys derive from it, same hash tag)
-- ARGV[1]  the time to live in ms ('' for none)
-- ARGV[2]  '1' to keep a memo of each object's index entries (models with a TTL or a cap), 'e' to sweep up to
--          10 objects whose time has come after each create (expirable models), 'E' both, '0' neither
-- ARGV[3]  the @Version field ('' none); new objects carry their version 1 among their fields
-- ARGV[4]  the cap's index key ('' none); ARGV[5] how many to keep; ARGV[6] 'asc' keeps the lowest
-- ARGV[7]  the id form, as save.lua's ARGV[10]: '0' given ids, '1' sequence, 'n:s' shard s of n
-- ARGV[8]  k; then k index specs (kind, attribute, scope, numeric: see indexes.lua): every index of the model
--          (also what a cap's trim finds the entries of an evicted object without a memo with)
-- then     p; then p pairs (foreign key field, the parent model's object key prefix): a value of such a field
--          must name a live parent object
-- then     c, the number of objects; then per object: its id ('' takes the next sequence value), n, and n
--          field, value pairs
-- Returns: an array of c outcomes, in order, each what save.lua returns for a create: the id; false when the
--          given id exists; {'unique', attribute}; {'relation', field}.
-- Guarantees: each object is checked as save.lua checks it (save-object.lua), in order, so a unique value taken
-- by an earlier object of the chunk refuses a later one; a refused object writes nothing and does not stop the
-- others. Each accepted object's hash, `all` entry and index and unique entries are written in this one script
-- (invariants 1 to 5), so no client ever sees part of one. Models with a TTL or a cap, or whose objects can
-- expire, are applied object by object exactly as save.lua does (TTL, memo, sweep, the cap kept after each
-- object). Other models take a
-- batched path with the same outcome: all checks first (values claimed earlier in the chunk count as taken),
-- then one INCRBY for the sequence ids (given in item order), one HSET per object, and the `all` and index
-- entries added with one command per key. Their entries are computed from the written values: a new object's
-- hash holds exactly those (a stray hash or memo under any of the ids is deleted first).
--!include key-types.lua
--!include indexes.lua
--!include objects.lua
--!include pages.lua
--!include caps.lua
--!include sequence-ids.lua
--!include save-object.lua
--!include batches.lua

local model = saveContext(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7])
local specCount = tonumber(ARGV[8])
local specs, fields = readSpecs(9, specCount)
model.capSpecs, model.capFields = specs, fields
local parentsFrom = 9 + 4 * specCount
local at = parentsFrom + 1 + 2 * tonumber(ARGV[parentsFrom])
local count = tonumber(ARGV[at])
at = at + 1

local items = {}
for i = 1, count do
  local setCount = tonumber(ARGV[at + 1])
  items[i] = { id = ARGV[at], setFrom = at + 2, setCount = setCount }
  at = at + 2 + 2 * setCount
end

-- every key the call reads or writes is checked before its first write (key-types.lua): a call refused for a
-- key of another type writes nothing, not even the objects ahead of the one whose key it is
local seen = {}
for _, item in ipairs(items) do
  expectSaveTypes(model, 'c', item.id, item.setFrom, item.setCount, item.setFrom, 0, specs, fields, seen)
end

-- The entry of object `id` for `spec`, added to the batch (indexes.lua's addEntry, one command per key).
local function batchEntry(batch, base, spec, values, id)
  local kind, key, member = entryOf(base, spec, values, id)
  if kind == 'S' then
    batchAdd(batch, 'SADD', key, member)
  elseif kind == 'U' then
    batchAdd(batch, 'HSET', key, member, id)
  elseif kind == 'Z' then
    batchAdd(batch, 'ZADD', key, spec.kind == 'Z' and (values[spec.attr] or 'inf') or 0, member)
  end
end

local function createBatched()
  -- claimed: attribute -> unique value -> true, and '#id' -> given id -> true, for the objects accepted so far
  local outcomes, accepted, claimed = {}, {}, { ['#id'] = {} }
  local drawn = 0
  for i, item in ipairs(items) do
    if item.id ~= '' and (claimed['#id'][item.id] or redis.call('ZSCORE', model.all, item.id)) then
      outcomes[i] = false
    else
      local written = writtenValues(item.setFrom, item.setCount)
      local refusal = claimRefusal(model.base, item.id, written, specs, parentsFrom, claimed)
      if refusal then
        outcomes[i] = refusal
      else
        for _, spec in ipairs(specs) do
          local value = isUnique(spec) and uniqueValue(spec, written)
          if value then
            claimed[spec.attr] = claimed[spec.attr] or {}
            claimed[spec.attr][value] = true
          end
        end
        claimed['#id'][item.id] = true
        item.at, item.values = i, written
        accepted[#accepted + 1] = item
        if item.id == '' then
          drawn = drawn + 1
        end
      end
    end
  end
  local nextDrawn = drawn > 0 and redis.call('INCRBY', model.sequence, drawn) - drawn + 1
  local base, batch, members = model.base, newBatch(), {}
  -- the ids first: any stray hash or memo under them (another program's, or the sequence set back) is deleted
  -- with one command, so that each object replaces it rather than merges into it
  local stray = {}
  for _, item in ipairs(accepted) do
    if item.id == '' then
      item.id, nextDrawn = sequenceId(model, nextDrawn), nextDrawn + 1
      item.score = item.id
    end
    stray[#stray + 1] = base .. ':obj:' .. item.id
    stray[#stray + 1] = base .. ':memo:' .. item.id
  end
  callInSlices('DEL', nil, stray)
  for _, item in ipairs(accepted) do
    local id, score = item.id, item.score or 0
    local key = base .. ':obj:' .. id
    callWithArgs('HSET', key, item.setFrom, item.setFrom + 2 * item.setCount - 1, { '#id', id })
    members[#members + 1] = score
    members[#members + 1] = id
    for _, spec in ipairs(specs) do
      batchEntry(batch, base, spec, item.values, id)
    end
    outcomes[item.at] = id
  end
  callInSlices('ZADD', model.all, members)
  runBatch(batch)
  return outcomes
end

if model.keepMemo or model.expirable or model.capKey ~= '' then
  local outcomes = {}
  for i, item in ipairs(items) do
    -- delFrom/delCount: a new object removes no field
    outcomes[i] = saveObject(model, 'c', item.id, '', item.setFrom, item.setCount, item.setFrom, 0, specs, fields, parentsFrom, true)
  end
  return outcomes
end
return createBatched()
