-- upsert.lua: Model.update (write the given attributes of one stored object, found by id) and Model.upsert
-- (update the object holding a unique value, or create it), each answering with the object as stored.
-- KEYS[1]  the model's sequence (string)
-- KEYS[2]  the model's `all` zset
-- KEYS[3]  the model's key base `<prefix>:{<Model>}`; the object's hash, memo and index keys derive from it and
--          share its hash tag
-- ARGV[1]  'u' update object ARGV[2], which must exist | 'o' update the object holding the value of the unique
--          index ARGV[11], else create one | 'i' as 'o', but an object holding the value is left as it is
-- ARGV[2]  'u': the id; 'o', 'i': the id of a created object ('' takes the next value of the sequence)
-- ARGV[3]  the time to live in ms of a created object ('' none); it then keeps a memo and an `exp` entry
-- ARGV[4]  the memo flag, as save.lua's ARGV[4] ('1' or 'E' when a created object keeps a memo)
-- ARGV[5]  the @Version field ('' none); ARGV[6] 'u' only: the version the caller expects ('' any)
-- ARGV[7]  the cap's index key and ARGV[8], ARGV[9] the cap, as save.lua's (a cap per value: the object's group)
-- ARGV[10] the id form, as save.lua's ARGV[10]
-- ARGV[11] 'o', 'i': the position (1-based), among the k index specs below, of the unique index to upsert on
-- ARGV[12] the time to live in ms an updated object gets with the write ('' keeps its own)
-- ARGV[13] n; then n field, value pairs to set; with @Version the last pair is the version field, whose value
--          the script writes: 1 on create, the stored version + 1 on update
-- then     m; then m fields to remove
-- then     k; then k index specs (kind, attribute, scope, numeric: see indexes.lua): 'u' the indexes the write
--          touches, 'o' and 'i' every index
-- then     p; then p pairs (foreign key field, the parent model's object key prefix): each such field set must
--          name a live parent
-- then     q; then q index specs: every index for a capped model or when ARGV[12] is given, else 0
-- then     r; then r groups (field, operator 'push' | 'pull' | 'addToSet', c, c JSON texts of values): 'u' only,
--          array operators (json-arrays.lua), each applied to the field's stored value; the field is among the n
--          pairs set, its value there the script's
-- Returns: {created, id, field, value, ...}: 1 when the object was created, else 0, its id, and every field of its
--          hash after the write (none when the write left no object: a cap's trim evicted it); or what save.lua
--          returns for a refusal: false (the object to update is gone or expired, or the id to create exists),
--          {'unique', attribute}, {'stale'} (the stored version is not ARGV[6]), {'relation', field}, {'notArray', field} (an array operator's field holds no JSON array).
-- Guarantees: those of save.lua (save-object.lua's saveObject makes the write): every check runs before the first
-- write, so a refused call writes nothing; the old index values are read here, never sent by the client; the
-- hash, `all`, index, unique and memo entries change together, a capped model is trimmed in the same script.
-- The look-up of the unique value and the write are one atomic step: upserts racing on one value make one object.
-- An array operator reads the stored array in the same step as it writes it: writers racing on one array lose
-- no update.
--!include key-types.lua
--!include indexes.lua
--!include objects.lua
--!include pages.lua
--!include caps.lua
--!include sequence-ids.lua
--!include save-context.lua
--!include save-object.lua
--!include json-arrays.lua

local mode, base = ARGV[1], KEYS[3]
local model = saveContext(KEYS[1], KEYS[2], base, ARGV[3], ARGV[4], ARGV[5], ARGV[7], ARGV[8], ARGV[9], ARGV[10])
local setFrom, setCount, delFrom, delCount, specs, fields, parentsFrom = readChange(model, 13)
local updateTtl = tonumber(ARGV[12])
local capSpecsAt = parentsFrom + 1 + 2 * tonumber(ARGV[parentsFrom])
local operationsAt = capSpecsAt + 1 + 4 * tonumber(ARGV[capSpecsAt])

-- The reply of a write that went through: the object as stored now.
local function stored(created, id)
  return { created, id, unpack(redis.call('HGETALL', base .. ':obj:' .. id)) }
end

-- The version field's value, the last pair set, for a write over `readVersion` ('' for a create).
local function setVersion(readVersion)
  if model.versionField ~= '' then
    ARGV[setFrom + 2 * setCount - 1] = tostring((tonumber(readVersion) or 0) + 1)
  end
end

-- Writes into the pairs set the value of each array operator's field: the operator applied to the stored array.
-- nil, or {'notArray', field} when a stored value is no JSON array (before any write).
local function applyOperators(key)
  local at = operationsAt + 1
  for _ = 1, tonumber(ARGV[operationsAt]) do
    local field, operator, count = ARGV[at], ARGV[at + 1], tonumber(ARGV[at + 2])
    local values = {}
    for v = 1, count do
      values[v] = ARGV[at + 2 + v]
    end
    local array = applyArrayOperator(callOfType('hash', 'HGET', key, field), operator, values)
    if not array then
      return { 'notArray', field }
    end
    for i = 0, setCount - 1 do
      if ARGV[setFrom + 2 * i] == field then
        ARGV[setFrom + 2 * i + 1] = array
      end
    end
    at = at + 3 + count
  end
  return nil
end

-- Updates live object `id`: saveObject's update, over `readVersion` (the stored one when the caller expects none).
local function update(id, expected)
  local key = base .. ':obj:' .. id
  local readVersion = expected
  if model.versionField ~= '' and expected == '' then
    readVersion = callOfType('hash', 'HGET', key, model.versionField) or ''
  end
  setVersion(readVersion)
  local notArray = applyOperators(key)
  if notArray then
    return notArray
  end
  if updateTtl then
    expectType(base .. ':memo:' .. id, 'hash')
  end
  local saved = saveObject(model, 'u', id, readVersion, setFrom, setCount, delFrom, delCount, specs, fields, parentsFrom)
  if type(saved) ~= 'string' then
    return saved
  end
  if updateTtl then
    expireWritten(base, id, updateTtl, model.capSpecs, model.capFields)
  end
  return stored(0, id)
end

if mode == 'u' then
  return update(ARGV[2], ARGV[6])
end

local spec = specs[tonumber(ARGV[11])]
local value = uniqueValue(spec, writtenValues(setFrom, setCount))
local owner = callOfType('hash', 'HGET', base .. ':uniq:' .. spec.attr, value)
-- an owner without its hash has expired (or is no object): the value is free, as for a create
if owner and isHash(base .. ':obj:' .. owner) then
  if mode == 'i' then
    return stored(0, owner)
  end
  return update(owner, '')
end
setVersion('')
local created = saveObject(model, 'c', ARGV[2], '', setFrom, setCount, delFrom, delCount, specs, fields, parentsFrom)
if type(created) ~= 'string' then
  return created
end
return stored(1, created)
