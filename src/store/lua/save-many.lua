-- save-many.lua: create a chunk of new objects of one model, each exactly as save.lua creates one.
-- KEYS[1]  the model's sequence (string)
-- KEYS[2]  the model's `all` zset
-- KEYS[3]  the model's key base `<prefix>:{<Model>}` (object, memo and index keys derive from it, same hash tag)
-- ARGV[1]  the time to live in ms ('' for none)
-- ARGV[2]  '1' to keep a memo of each object's index entries (models with a TTL or a cap), 'e' to sweep up to
--          10 objects whose time has come after each create (expirable models), 'E' both, '0' neither
-- ARGV[3]  the @Version field ('' none); new objects carry their version 1 among their fields
-- ARGV[4]  the cap's index key ('' none), or for a cap per value the stem of its groups' keys (caps.lua);
--          ARGV[5] how many to keep; ARGV[6] 'asc' keeps the lowest, 'desc' the highest, followed for a cap
--          per value by '@', the field of `per` and '#' when it holds numbers ('desc@userId': readCap)
-- ARGV[7]  the id form, as save.lua's ARGV[10]: '0' given ids, '1' sequence, 'n:s' shard s of n
-- ARGV[8]  k; then k index specs (kind, attribute, scope, numeric: see indexes.lua): every index of the model
--          (also what a cap's trim finds the entries of an evicted object without a memo with)
-- then     p; then p pairs (foreign key field, the parent model's object key prefix): a value of such a field
--          must name a live parent object
-- then     c, the number of objects; then per object: its id ('' takes the next sequence value), n, and n
--          field, value pairs
-- Returns: an array of c outcomes, in order, each what save.lua returns for a create: the id; false when the
--          given id exists; {'unique', attribute}; {'relation', field}; or, applied object by object (below),
--          {'error', reply}: the error reply that refused that object alone (as save.lua would raise it).
-- Guarantees: the outcome is that of save.lua called for each object in order: each object is checked as
-- save.lua checks it (save-object.lua), so a unique value taken by an earlier object of the chunk refuses a later
-- one, and an object may name an earlier object of the chunk as its parent; a refused object writes nothing and
-- does not stop the others. Each accepted object's hash, `all` entry and index and unique entries are written in
-- this one script (invariants 1 to 5), so no client ever sees part of one. Models with a TTL or a cap, or whose
-- objects can expire, are applied object by object exactly as save.lua does (TTL, memo, sweep, the cap kept
-- after each object). Other models take a batched path with the same outcome: all checks first (values claimed
-- earlier in the chunk count as taken), then one INCRBY for the sequence ids (given in item order), one HSET per
-- object, and the `all` and index entries added with one command per key. Their entries are computed from the
-- written values: a new object's hash holds exactly those (a stray hash or memo under any of the ids is deleted
-- first). A chunk in which an object names, through a foreign key to the model itself, a parent that is not
-- stored (which an earlier object of the chunk may be about to become) is applied object by object instead,
-- after checks that wrote nothing. An error raised by the call comes before its first write: the types of
-- `all`, `exp`, the sequence and the index and unique keys of every object (expectSaveTypes), draws that would
-- pass 2^53 - 1 (refused as sequence-ids.lua refuses one, before the sequence moves), and, batched, a sequence
-- holding no integer (refused by the one draw, which precedes every write). Object by object, an error reply
-- refusing one object is that object's outcome (a sequence holding no integer refuses each object's draw).
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include objects.lua
--!include pages.lua
--!include caps.lua
--!include sequence-ids.lua
--!include save-context.lua
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
  -- the written values, read once: the batched path's checks and entries take them from here
  local _, written = expectSaveTypes(model, 'c', item.id, item.setFrom, item.setCount, item.setFrom, 0, specs, fields, seen)
  item.written = written
end

-- The chunk's sequence ids, checked before its first write: a chunk whose draws would pass 2^53 - 1 is refused
-- whole (sequenceId's refusal) rather than after writing the objects ahead of that draw (object by object) or
-- with the sequence moved (batched). A value that is no number is left to the first draw to refuse.
local draws = 0
for _, item in ipairs(items) do
  if item.id == '' then
    draws = draws + 1
  end
end
if draws > 0 then
  local current = tonumber(redis.call('GET', model.sequence) or '0')
  if current then
    sequenceId(model, current + draws)
  end
end

-- The entry of object `id` for `spec`, added to the batch (indexes.lua's addEntry, one command per key).
local function batchEntry(batch, base, spec, values, id)
  eachEntry(base, spec, values, id, function(kind, key, member)
    if kind == 'S' then
      batchAdd(batch, 'SADD', key, member)
    elseif kind == 'U' then
      batchAdd(batch, 'HSET', key, member, id)
    else
      batchAdd(batch, 'ZADD', key, spec.kind == 'Z' and (values[spec.attr] or 'inf') or 0, member)
    end
  end)
end

-- The foreign key fields whose parent is an object of this model itself: field -> true.
local function ownParentFields()
  local own, found = model.base .. ':obj:', {}
  for p = 0, tonumber(ARGV[parentsFrom]) - 1 do
    if ARGV[parentsFrom + 2 + 2 * p] == own then
      found[ARGV[parentsFrom + 1 + 2 * p]] = true
    end
  end
  return found
end

-- Applies the chunk in one batch; nil, with nothing written, when an object names a parent of this model that is
-- not stored: an earlier object of the chunk may be that parent, which only an object by object run can tell.
local function createBatched()
  local ownParents = ownParentFields()
  -- claimed: attribute -> unique value -> true, and '#id' -> given id -> true, for the objects accepted so far
  local outcomes, accepted, claimed = {}, {}, { ['#id'] = {} }
  local drawn = 0
  for i, item in ipairs(items) do
    if item.id ~= '' and (claimed['#id'][item.id] or redis.call('ZSCORE', model.all, item.id)) then
      outcomes[i] = false
    else
      local written = item.written
      local refusal = claimRefusal(model.base, item.id, written, specs, parentsFrom, claimed)
      if refusal and refusal[1] == 'relation' and ownParents[refusal[2]] then
        return nil
      elseif refusal then
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
        item.at = i
        accepted[#accepted + 1] = item
        if item.id == '' then
          drawn = drawn + 1
        end
      end
    end
  end
  local nextDrawn = drawn > 0 and drawSequence(model.sequence, drawn) - drawn + 1
  local base, batch, members = model.base, newBatch(), {}
  -- the ids first: any stray hash or memo under them (another program's, or the sequence set back) is deleted
  -- with one command, so that each object replaces it rather than merges into it
  -- (object n's key at 2n - 1, its memo's at 2n; the HSETs take the object keys from here)
  local stray = {}
  for n, item in ipairs(accepted) do
    if item.id == '' then
      item.id, nextDrawn = sequenceId(model, nextDrawn), nextDrawn + 1
      item.score = item.id
    end
    stray[2 * n - 1] = base .. ':obj:' .. item.id
    stray[2 * n] = base .. ':memo:' .. item.id
  end
  callInSlices('DEL', nil, stray)
  for n, item in ipairs(accepted) do
    -- sequence ids are scored by value, also one drawn before the call (saveMany draws them ahead)
    local id, score = item.id, item.score or (model.numeric and item.id) or 0
    callWithArgs('HSET', stray[2 * n - 1], item.setFrom, item.setFrom + 2 * item.setCount - 1, '#id', id)
    members[#members + 1] = score
    members[#members + 1] = id
    for _, spec in ipairs(specs) do
      batchEntry(batch, base, spec, item.written, id)
    end
    outcomes[item.at] = id
  end
  callInSlices('ZADD', model.all, members)
  runBatch(batch)
  return outcomes
end

-- Applies the chunk object by object, each exactly as save.lua creates one (its keys were checked above). An
-- object whose save is refused with an error reply (a key of another type under its new id, which saveObject
-- refuses before writing anything of it, and which no check could name before its id was drawn) gets
-- {'error', reply} as its outcome, and the objects after it go on: as save() called for each in turn, rather
-- than an error for the whole call after the objects ahead of it were written. An error reply carries a code
-- (an upper-case word and a space: RRTYPE, ERR, ...); anything else is a fault of the script, raised.
local function createEach()
  local outcomes = {}
  for i, item in ipairs(items) do
    -- delFrom/delCount: a new object removes no field
    local ok, outcome = pcall(saveObject, model, 'c', item.id, '', item.setFrom, item.setCount, item.setFrom, 0, specs, fields, parentsFrom, true)
    if not ok then
      -- the error reply's table, or its text (as Redis 7 hands a caught error to pcall)
      local reply = type(outcome) == 'table' and outcome.err or outcome
      if type(reply) ~= 'string' or not string.match(reply, '^%u+ ') then
        error(outcome)
      end
      outcome = { 'error', reply }
    end
    outcomes[i] = outcome
  end
  return outcomes
end

if model.keepMemo or model.expirable or model.capKey ~= '' then
  return createEach()
end
return createBatched() or createEach()
