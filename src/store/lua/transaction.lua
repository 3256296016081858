-- transaction.lua: write saves and removals of objects under one hash tag (one model, or the models of a group)
-- all or nothing; also a create retried under an idempotency key, stored once.
-- KEYS[1]  when ARGV[1] is '1': the idempotency memo `<base>:idem:<key>` (string: the id the create stored)
-- then     per model section, three keys: its sequence, its `all` zset, its key base (object, memo and index
--          keys derive from it; every section shares one hash tag)
-- ARGV[1]  '1' when KEYS[1] is an idempotency memo, else '0'; ARGV[2] the memo's time to live in ms
-- ARGV[3]  s, the number of sections; then per section: the time to live of a new object in ms ('' none), the
--          memo flag, the @Version field ('' none) and the id form, as save.lua's ARGV[3], [4], [5] and [10]
-- then     n, the number of operations; then per operation: 'c' create | 'u' update | 'r' remove, its section
--          number, its id ('' on create takes the next sequence value), the version the client read ('' none);
--          then for a save, save.lua's layout from its ARGV[11] on (n field/value pairs, m removed fields, k
--          index specs, p parent checks); for a removal, the model table (relations.lua), its model first
-- Returns: {'done', r1 .. rn}: for a save the id, for a removal 1 when the object was in `all`, else 0;
--          {'refused', i, refusal}: operation i refused as save.lua or remove.lua refuses one (false, {'stale'},
--          {'unique', attribute}, {'relation', field}, {'restrict', model number, foreign key}), nothing written;
--          {'replay', id}: the idempotency memo names the object an earlier call created, nothing written.
-- Guarantees: every operation is checked (transaction-checks.lua) against Redis with the effects of the ones
-- before it laid over, and every key the writes touch is type-checked, before the first write; so a refused or
-- failing transaction writes nothing. Then each is written in order as save.lua (saveObject) and remove.lua
-- (removeTree) write one: hashes, `all`, index, unique and memo entries, cascades, nullified keys and
-- memberships change together (invariants 1 to 6), and no client sees part of it. A capped model is not taken
-- (the caller refuses it): a trim could evict an object a later operation writes. The idempotency memo is
-- written with the create, and read before anything else: a retry within its time to live writes nothing.
--!include key-types.lua
--!include indexes.lua
--!include objects.lua
--!include pages.lua
--!include caps.lua
--!include sequence-ids.lua
--!include save-context.lua
--!include save-object.lua
--!include relations.lua
--!include transaction-checks.lua

local hasMemo = ARGV[1] == '1'
local firstKey = hasMemo and 2 or 1
local sections = {}
local at = 4
for s = 1, tonumber(ARGV[3]) do
  local k = firstKey + 3 * (s - 1)
  local model = saveContext(KEYS[k], KEYS[k + 1], KEYS[k + 2], ARGV[at], ARGV[at + 1], ARGV[at + 2], '', '', 'desc', ARGV[at + 3])
  model.capSpecs, model.capFields = readSpecs(at, 0)
  sections[s] = model
  at = at + 4
end

local ops = {}
for i = 1, tonumber(ARGV[at]) do
  local op = { mode = ARGV[at + 1], model = sections[tonumber(ARGV[at + 2])], id = ARGV[at + 3], readVersion = ARGV[at + 4] }
  at = at + 5
  if op.mode == 'r' then
    op.models, at = readModels(at)
    at = at - 1
  else
    for part, value in pairs(changeAt(at)) do
      op[part] = value
    end
    at = op.parentsFrom + 1 + 2 * op.parentCount - 1
  end
  ops[i] = op
end

if hasMemo then
  local id = callOfType('string', 'GET', KEYS[1])
  if id then
    return { 'replay', id }
  end
end

local overlay, seen = newOverlay(), {}
for i, op in ipairs(ops) do
  local refusal
  if op.mode == 'r' then
    refusal = checkRemove(overlay, op.models, op.id)
  else
    refusal = checkSave(overlay, op.model, op, seen)
  end
  if refusal ~= nil then
    return { 'refused', i, refusal }
  end
end

local results = { 'done' }
for i, op in ipairs(ops) do
  if op.mode == 'r' then
    results[i + 1] = redis.call('ZSCORE', op.models[1].base .. ':all', op.id) and 1 or 0
    removeTree(op.models, 1, op.id, {})
  else
    local outcome = saveObject(op.model, op.mode, op.id, op.readVersion, op.setFrom, op.setCount, op.delFrom, op.delCount, op.specs, op.fields, op.parentsFrom, true)
    if type(outcome) ~= 'string' then
      -- the checks above accept only what saveObject accepts: never reached
      error('ERR transaction: operation ' .. i .. ' was refused after its checks had passed')
    end
    results[i + 1] = outcome
  end
end
if hasMemo then
  redis.call('SET', KEYS[1], results[2], 'PX', ARGV[2])
end
return results
