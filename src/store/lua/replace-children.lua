-- replace-children.lua: make the children of a has-many exactly the given objects: they get the parent's id as
-- their foreign key, and the parent's other children have it cleared (as onDelete 'nullify' clears it).
-- KEYS[1]  the parent's hash (read, never written)
-- KEYS[2]  the child model's `all`;  KEYS[3] the child model's key base (object, memo and index keys derive
--          from it, same hash tag; on Redis Cluster the two models share a group, as for every relation script)
-- ARGV[1]  the parent's id;  ARGV[2] the foreign key field
-- ARGV[3]  k, then k index specs (indexes.lua): the child model's indexes on or scoped by the foreign key
-- then     the children's ids, each once
-- Returns: 1; {'missing', 'self'} or {'missing', 'other', id} when the parent or a child is not live;
--          {'unique', attribute, id, value} when a child would take a unique value another object holds.
--          Nothing is written then.
-- Guarantees: one step for every child (invariant 6): each changed child's hash, index and unique entries and
-- memo move together, as a save of the foreign key moves them. Every key is checked before the first write. The
-- children's versions are kept and no hook runs, as for onDelete 'nullify'.
--!include key-types.lua
--!include indexes.lua
--!include objects.lua

local all, base, parentId, fk = KEYS[2], KEYS[3], ARGV[1], ARGV[2]
local specCount = tonumber(ARGV[3])
local specs, fields = readSpecs(4, specCount)
local ids = { unpack(ARGV, 4 + 4 * specCount) }
if not isHash(KEYS[1]) then
  return { 'missing', 'self' }
end
local wanted, attach = {}, {}
for _, id in ipairs(ids) do
  if not (redis.call('ZSCORE', all, id) and isHash(base .. ':obj:' .. id)) then
    return { 'missing', 'other', id }
  end
  wanted[id] = true
  if redis.call('HGET', base .. ':obj:' .. id, fk) ~= parentId then
    attach[#attach + 1] = id
  end
end
local childrenKey = base .. ':idx:' .. fk .. ':' .. parentId
expectType(childrenKey, 'set')
local detach = {}
for _, id in ipairs(redis.call('SMEMBERS', childrenKey)) do
  if not wanted[id] and isHash(base .. ':obj:' .. id) then
    detach[#detach + 1] = id
  end
end

-- every key a change writes, checked first: the hash, the memo, the entries before and after
local seen, claimed = {}, {}
local function expectChange(id, value)
  local key = base .. ':obj:' .. id
  expectType(base .. ':memo:' .. id, 'hash', seen)
  local before = readValues(key, fields)
  local after = {}
  for field, stored in pairs(before) do
    after[field] = stored
  end
  after[fk] = value
  for _, spec in ipairs(specs) do
    for _, values in ipairs({ before, after }) do
      local kind, entryKey = entryOf(base, spec, values, id)
      if kind then
        expectType(entryKey, entryKeyType(kind), seen)
      end
    end
    local kind, entryKey, member = entryOf(base, spec, after, id)
    if kind == 'U' then
      local holder = claimed[entryKey .. '\0' .. member] or redis.call('HGET', entryKey, member)
      if holder and holder ~= id then
        return { 'unique', spec.attr, id, after[spec.attr] or '' }
      end
      claimed[entryKey .. '\0' .. member] = id
    end
  end
  return nil
end
for _, id in ipairs(detach) do
  expectChange(id, false)
end
for _, id in ipairs(attach) do
  local refused = expectChange(id, parentId)
  if refused then
    return refused
  end
end

for _, id in ipairs(detach) do
  clearField(base, id, fk, specs, fields)
end
for _, id in ipairs(attach) do
  setField(base, id, fk, parentId, specs, fields)
end
return 1
