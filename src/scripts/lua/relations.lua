-- relations.lua: removing an object together with what depends on it; a library inlined into remove.lua.
-- Needs indexes.lua and objects.lua before it. KEYS/ARGV: none of its own; reads the model table that
-- src/relations/removal-program.ts writes into ARGV:
--   count, then per model: base, k index specs (indexes.lua), d dependents (model number, foreign key,
--   rule 'restrict' | 'cascade' | 'nullify'), m membership sides (my set prefix, other set prefix).
-- A dependent's objects are found in its foreign key's set index: <childBase>:idx:<fk>:<parentId>.
-- Guarantees: every restrict rule in the whole cascade is checked before the first write, so a refused
-- remove writes nothing; otherwise children are removed (cascade, recursively) or have their foreign key and
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
      model.sides[k] = { mine = ARGV[at + 2 * k - 1], other = ARGV[at + 2 * k] }
    end
    at = at + 1 + 2 * #model.sides
    models[m] = model
  end
  return models
end

local function childrenOf(models, dep, id)
  return redis.call('SMEMBERS', models[dep.child].base .. ':idx:' .. dep.fk .. ':' .. id)
end

-- nil, or {'restrict', model number, foreign key} for the first restrict rule the removal would break.
local function checkRemoval(models, m, id, seen)
  if seen[m .. ':' .. id] then
    return nil
  end
  seen[m .. ':' .. id] = true
  for _, dep in ipairs(models[m].deps) do
    local children = childrenOf(models, dep, id)
    if #children > 0 then
      if dep.rule == 'restrict' then
        -- only a live child other than the object itself restricts: one whose time has come is invisible (its
        -- entries not yet swept), and an object that is its own parent goes with its own removal
        local childBase = models[dep.child].base
        for _, child in ipairs(children) do
          local itself = dep.child == m and child == id
          if not itself and redis.call('EXISTS', childBase .. ':obj:' .. child) == 1 then
            return { 'restrict', dep.child, dep.fk }
          end
        end
      end
      if dep.rule == 'cascade' then
        for _, child in ipairs(children) do
          local problem = checkRemoval(models, dep.child, child, seen)
          if problem then
            return problem
          end
        end
      end
    end
  end
  return nil
end

-- Clears the foreign key of object `id` of `model`, moving the index entries that depend on it.
local function nullify(model, id, fk)
  local specs, fields, seen = {}, {}, {}
  for _, spec in ipairs(model.specs) do
    if spec.attr == fk or spec.scope == fk then
      specs[#specs + 1] = spec
      for _, field in ipairs({ spec.attr, spec.scope, '#ci:' .. spec.attr }) do
        if field ~= '' and not seen[field] then
          seen[field] = true
          fields[#fields + 1] = field
        end
      end
    end
  end
  clearField(model.base, id, fk, specs, fields)
end

local function removeTree(models, m, id, seen)
  if seen[m .. ':' .. id] then
    return
  end
  seen[m .. ':' .. id] = true
  local model = models[m]
  for _, dep in ipairs(model.deps) do
    if dep.rule ~= 'restrict' then
      for _, child in ipairs(childrenOf(models, dep, id)) do
        if dep.rule == 'cascade' then
          removeTree(models, dep.child, child, seen)
        else
          nullify(models[dep.child], child, dep.fk)
        end
      end
    end
  end
  for _, sides in ipairs(model.sides) do
    local mine = sides.mine .. id
    for _, other in ipairs(redis.call('SMEMBERS', mine)) do
      redis.call('SREM', sides.other .. other, id)
    end
    redis.call('DEL', mine)
  end
  purgeObject(model.base, model.base .. ':all', id, model.specs, model.fields)
end
