-- relations.lua: removing an object together with what depends on it; a library inlined into remove.lua.
-- Needs key-types.lua, indexes.lua, objects.lua and lists.lua before it. KEYS/ARGV: none of its own; reads the model table that
-- src/store/removal-program.ts writes into ARGV:
--   count, then per model: base, k index specs (indexes.lua), d dependents (model number, foreign key,
--   rule 'restrict' | 'cascade' | 'nullify'), m membership sides (my set prefix, other set prefix, then '1' or
--   '0' for each: whether its sets are ordered lists, lists.lua).
-- A dependent's objects are found in its foreign key's set index: <childBase>:idx:<fk>:<parentId>.
-- readModels returns the table and the ARGV position after it (transaction.lua reads on from there).
-- Guarantees: every restrict rule in the whole cascade, and the type of every key the removal writes
-- (key-types.lua), is checked before the first write, so a refused remove writes nothing; otherwise children are removed (cascade, to any depth) or have their foreign key and
-- its index entries cleared (nullify), and every many-to-many membership is removed from both sides, in the
-- same script as the object itself (invariant 6).

local function readModels(from)
  local count = tonumber(ARGV[from])
  local at = from + 1
  local models = {}
  for m = 1, count do
    local model = { base = ARGV[at] }
    local specCount = tonumber(ARGV[at + 1])
    model.specs, model.fields = readSpecs(at + 2, specCount)
    at = at + 2 + 4 * specCount
    model.deps = {}
    for d = 1, tonumber(ARGV[at]) do
      model.deps[d] = { child = tonumber(ARGV[at + 3 * d - 2]), fk = ARGV[at + 3 * d - 1], rule = ARGV[at + 3 * d] }
    end
    at = at + 1 + 3 * #model.deps
    model.sides = {}
    for k = 1, tonumber(ARGV[at]) do
      local from = at + 4 * k - 4
      model.sides[k] = {
        mine = ARGV[from + 1],
        other = ARGV[from + 2],
        mineOrdered = ARGV[from + 3] == '1',
        otherOrdered = ARGV[from + 4] == '1',
      }
    end
    at = at + 1 + 4 * #model.sides
    models[m] = model
  end
  return models, at
end

local function childrenOf(models, dep, id)
  local key = models[dep.child].base .. ':idx:' .. dep.fk .. ':' .. id
  expectType(key, 'set')
  return redis.call('SMEMBERS', key)
end

-- Refuses (key-types.lua) a key that removing object `id` of `model` writes and that holds another type: its
-- hash, memo, `all` and `exp` entries, index and unique entries, and its membership sets on both sides.
local function expectRemovalTypes(model, id)
  local base = model.base
  expectType(base .. ':all', 'zset')
  expectType(base .. ':exp', 'zset')
  expectType(base .. ':memo:' .. id, 'hash')
  expectType(base .. ':obj:' .. id, 'hash')
  objectEntries(base, id, model.specs, model.fields, expectEntry)
  for _, sides in ipairs(model.sides) do
    local mine = sides.mine .. id
    expectType(mine, sideType(sides.mineOrdered))
    for _, other in ipairs(sideMembers(mine, sides.mineOrdered)) do
      expectType(sides.other .. other, sideType(sides.otherOrdered))
    end
  end
end

-- Refuses (key-types.lua) a key that clearing a foreign key of object `id` of `model` (nullify) writes and that
-- holds another type: its hash, memo and the index and unique entries it has (those of the foreign key among
-- them; once cleared, it has no entry in a key it had none in).
local function expectNullifyTypes(model, id)
  expectType(model.base .. ':obj:' .. id, 'hash')
  expectType(model.base .. ':memo:' .. id, 'hash')
  objectEntries(model.base, id, model.specs, model.fields, expectEntry)
end

-- Both walks below are depth first and iterative: a frame per object on an explicit stack (its model number,
-- its id, the dependent it is at and that dependent's children, read when it gets there), so a cascade of any
-- depth fits (Lua's own stack would hold some 16,000 levels of recursion). `seen` keeps each object to one
-- visit, which is what makes self-references and cycles end.
local function enterFrame(stack, seen, m, id)
  local key = m .. ':' .. id
  if not seen[key] then
    seen[key] = true
    stack[#stack + 1] = { m = m, id = id, d = 0, c = 0 }
  end
end

-- The next child of the frame's current dependent, or else moves the frame on to its next dependent (reading
-- that dependent's children when `wanted(dep)`); returns (dep, child), (dep, nil) on reaching a dependent, or
-- nil when the frame has no dependent left.
local function stepFrame(models, frame, wanted)
  local deps = models[frame.m].deps
  if frame.children and frame.c < #frame.children then
    frame.c = frame.c + 1
    return deps[frame.d], frame.children[frame.c]
  end
  frame.d = frame.d + 1
  frame.c = 0
  frame.children = nil
  local dep = deps[frame.d]
  if dep and wanted(dep) then
    frame.children = childrenOf(models, dep, frame.id)
  end
  return dep, nil
end

-- A live child other than the object itself: one whose time has come is invisible (its entries not yet swept),
-- and an object that is its own parent goes with its own removal.
local function restricts(models, m, id, dep, children)
  local childBase = models[dep.child].base
  for _, child in ipairs(children) do
    local itself = dep.child == m and child == id
    -- a key of another type than a hash is no object (as check() reads it)
    if not itself and isHash(childBase .. ':obj:' .. child) then
      return true
    end
  end
  return false
end

-- nil, or {'restrict', model number, foreign key} for the first restrict rule the removal would break (in the
-- order the removal would meet them). A key the removal would write that holds another type is an error
-- (key-types.lua), raised before anything is written.
local function checkRemoval(models, m, id, seen)
  local stack = {}
  enterFrame(stack, seen, m, id)
  local function wanted()
    return true
  end
  while #stack > 0 do
    local frame = stack[#stack]
    local dep, child = stepFrame(models, frame, wanted)
    if not dep then
      stack[#stack] = nil
      expectRemovalTypes(models[frame.m], frame.id)
    elseif child then
      if dep.rule == 'nullify' then
        expectNullifyTypes(models[dep.child], child)
      else
        enterFrame(stack, seen, dep.child, child)
      end
    elseif dep.rule == 'restrict' then
      if restricts(models, frame.m, frame.id, dep, frame.children) then
        return { 'restrict', dep.child, dep.fk }
      end
      frame.children = nil
    end
  end
  return nil
end

-- Clears the foreign key of object `id` of `model`, moving the index entries that depend on it.
local function nullify(model, id, fk)
  local specs, fields, seen = {}, {}, {}
  for _, spec in ipairs(model.specs) do
    if specReads(spec, fk) then
      specs[#specs + 1] = spec
      for _, field in ipairs(spec.parts or { spec.attr, spec.scope, '#ci:' .. spec.attr }) do
        if field ~= '' and not seen[field] then
          seen[field] = true
          fields[#fields + 1] = field
        end
      end
    end
  end
  clearField(model.base, id, fk, specs, fields)
end

-- Removes the object and, first, what depends on it: cascaded children (their own dependents first, and so on),
-- nullified foreign keys, many-to-many memberships on both sides.
local function removeTree(models, m, id, seen)
  local stack = {}
  enterFrame(stack, seen, m, id)
  local function wanted(dep)
    return dep.rule ~= 'restrict'
  end
  while #stack > 0 do
    local frame = stack[#stack]
    local dep, child = stepFrame(models, frame, wanted)
    if not dep then
      stack[#stack] = nil
      local model = models[frame.m]
      for _, sides in ipairs(model.sides) do
        local mine = sides.mine .. frame.id
        for _, other in ipairs(sideMembers(mine, sides.mineOrdered)) do
          removeMember(sides.other .. other, sides.otherOrdered, frame.id)
        end
        redis.call('DEL', mine)
      end
      purgeObject(model.base, model.base .. ':all', frame.id, model.specs, model.fields)
    elseif child then
      if dep.rule == 'cascade' then
        enterFrame(stack, seen, dep.child, child)
      else
        nullify(models[dep.child], child, dep.fk)
      end
    end
  end
end
