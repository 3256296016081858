-- transaction-checks.lua: the checks of a transaction's operations (transaction.lua), each made against what Redis
-- holds with the effects of the operations before it laid over: objects created and removed (cascades included),
-- unique values taken and given up, and the members of the set indexes in which a parent finds its children.
-- Needs key-types.lua, spec-lists.lua, indexes.lua, save-context.lua, save-object.lua and relations.lua before it.
-- KEYS/ARGV: none of its own. A save's fields, specs and parent checks are read from ARGV at the positions the
-- caller gives, in save.lua's layout; a removal's model table is relations.lua's (readModels).
-- Guarantees: reads only (TYPE, GET, HGET, HMGET, SMEMBERS, ZSCORE), so a transaction runs every check before its
-- first write; an operation accepted here is accepted by saveObject (save-object.lua) run after the operations
-- before it, since what it reads is laid over exactly as those operations change it. Every key a write will
-- touch is type-checked (expectSaveTypes, expectRemovalTypes, expectNullifyTypes).

-- The virtual state of one transaction: object key -> true (created) | false (removed); unique hash -> value ->
-- id | false (given up); set index -> member -> true | false. `created` numbers the new objects whose id is drawn
-- at the write (named '#new<n>' meanwhile: no id holds '#').
local function newOverlay()
  return { objects = {}, owners = {}, members = {}, created = 0 }
end

-- Whether the object at `key` is live: created or removed earlier in the transaction, else a hash in Redis.
local function isLive(overlay, key)
  local known = overlay.objects[key]
  if known ~= nil then
    return known
  end
  return isHash(key)
end

-- The id holding `value` in the unique hash `key` (nil: none), as the operations before left it.
local function ownerOf(overlay, key, value)
  local known = overlay.owners[key]
  if known and known[value] ~= nil then
    return known[value] or nil
  end
  return callOfType('hash', 'HGET', key, value)
end

-- Lays an entry (entryOf's kind, key and member) of object `id` over: added when `present`, else gone.
local function layEntry(overlay, kind, key, member, id, present)
  if kind == 'U' then
    overlay.owners[key] = overlay.owners[key] or {}
    overlay.owners[key][member] = present and id
  elseif kind == 'S' then
    overlay.members[key] = overlay.members[key] or {}
    overlay.members[key][member] = present
  end
end

-- The members of the set index `key`, as the operations before left it (in a fixed order).
local function membersOf(overlay, key)
  expectType(key, 'set')
  local found, list = {}, {}
  for _, member in ipairs(redis.call('SMEMBERS', key)) do
    found[member] = true
  end
  for member, present in pairs(overlay.members[key] or {}) do
    found[member] = present
  end
  for member, present in pairs(found) do
    if present then
      list[#list + 1] = member
    end
  end
  table.sort(list)
  return list
end

-- nil when the save `op` (mode 'c' | 'u', with its ARGV positions, specs and fields) is accepted after the
-- operations before it, else its refusal as saveObject answers it: false (the object to update is gone, the id to
-- create exists), {'stale'}, {'unique', attribute}, {'relation', field}. An accepted save is laid over.
local function checkSave(overlay, model, op, seen)
  local base, id = model.base, op.id
  local before, written, after =
    expectSaveTypes(model, op.mode, id, op.setFrom, op.setCount, op.delFrom, op.delCount, op.specs, op.fields, seen)
  local key = base .. ':obj:' .. id
  if op.mode == 'u' then
    if not isLive(overlay, key) then
      return false
    end
    if model.versionField ~= '' and (redis.call('HGET', key, model.versionField) or '') ~= op.readVersion then
      return { 'stale' }
    end
  elseif id ~= '' then
    local known = overlay.objects[key]
    if known or (known == nil and redis.call('ZSCORE', model.all, id)) then
      return false
    end
  end
  -- the values after the save: a composite unique's value reads the parts an update does not write
  after = after or written
  for _, spec in ipairs(op.specs) do
    local value = isUnique(spec) and uniqueValue(spec, spec.kind == 'M' and after or written)
    if value then
      local holder = ownerOf(overlay, base .. ':uniq:' .. spec.attr, value)
      if holder and holder ~= id and isLive(overlay, base .. ':obj:' .. holder) then
        return { 'unique', spec.attr }
      end
    end
  end
  for p = 0, tonumber(ARGV[op.parentsFrom]) - 1 do
    local field = ARGV[op.parentsFrom + 1 + 2 * p]
    local parent = written[field]
    if parent and not isLive(overlay, ARGV[op.parentsFrom + 2 + 2 * p] .. parent) then
      return { 'relation', field }
    end
  end
  if id == '' then
    overlay.created = overlay.created + 1
    id = '#new' .. overlay.created
  end
  overlay.objects[base .. ':obj:' .. id] = true
  for _, spec in ipairs(op.specs) do
    if op.mode == 'c' or not sameEntry(spec, before, after) then
      local kind, entryKey, member = entryOf(base, spec, before, id)
      if kind then
        layEntry(overlay, kind, entryKey, member, id, false)
      end
      kind, entryKey, member = entryOf(base, spec, after, id)
      if kind then
        layEntry(overlay, kind, entryKey, member, id, true)
      end
    end
  end
  return nil
end

-- nil when removing object `id` of models[1] (relations.lua's table) is accepted after the operations before it,
-- else {'restrict', model number, foreign key}, as checkRemoval answers. An accepted removal is laid over: the
-- object and its cascade gone (their unique values free with them), the foreign keys it clears out of their sets.
local function checkRemove(overlay, models, id)
  expectType(models[1].base .. ':all', 'zset')
  local stack, seen, gone, cleared = { { m = 1, id = id } }, { ['1:' .. id] = true }, {}, {}
  while #stack > 0 do
    local frame = table.remove(stack)
    local model = models[frame.m]
    expectRemovalTypes(model, frame.id)
    gone[#gone + 1] = model.base .. ':obj:' .. frame.id
    for _, dep in ipairs(model.deps) do
      local child = models[dep.child]
      local setKey = child.base .. ':idx:' .. dep.fk .. ':' .. frame.id
      for _, member in ipairs(membersOf(overlay, setKey)) do
        local itself = dep.child == frame.m and member == frame.id
        if dep.rule == 'restrict' then
          if not itself and isLive(overlay, child.base .. ':obj:' .. member) then
            return { 'restrict', dep.child, dep.fk }
          end
        elseif dep.rule == 'cascade' then
          if not seen[dep.child .. ':' .. member] then
            seen[dep.child .. ':' .. member] = true
            stack[#stack + 1] = { m = dep.child, id = member }
          end
        else
          expectNullifyTypes(child, member)
          cleared[#cleared + 1] = { setKey, member }
        end
      end
    end
  end
  for _, key in ipairs(gone) do
    overlay.objects[key] = false
  end
  for _, entry in ipairs(cleared) do
    layEntry(overlay, 'S', entry[1], entry[2], entry[2], false)
  end
  return nil
end
