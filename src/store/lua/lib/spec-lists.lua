-- spec-lists.lua: reading index specs (indexes.lua's header says their form) from ARGV, and the stored values
-- their entries depend on; a library inlined before indexes.lua.
-- KEYS/ARGV: none of its own; readSpecs reads ARGV at the position its caller gives.

-- Spec lists read so far (their ARGV strings joined -> { specs, fields }): a library's top-level locals live from
-- one call to the next, and a model sends the same few lists again and again. Read-only once made.
local specLists, specListCount = {}, 0
local NO_SPECS = { {}, {} }

-- Reads `count` specs from ARGV starting at `from`; returns them and the fields their entries depend on (tables
-- shared between calls: never changed by a caller).
local function readSpecs(from, count)
  if count == 0 then
    return NO_SPECS[1], NO_SPECS[2]
  end
  local text = table.concat(ARGV, '\31', from, from + 4 * count - 1)
  local known = specLists[text]
  if known then
    return known[1], known[2]
  end
  local specs, fields, seen = {}, {}, {}
  local function need(field)
    if field ~= '' and not seen[field] then
      seen[field] = true
      fields[#fields + 1] = field
    end
  end
  for i = 0, count - 1 do
    local at = from + 4 * i
    local numeric = ARGV[at + 3]
    local spec = {
      kind = ARGV[at],
      attr = ARGV[at + 1],
      scope = ARGV[at + 2],
      attrNumeric = string.find(numeric, 'a', 1, true) ~= nil,
      scopeNumeric = string.find(numeric, 's', 1, true) ~= nil,
    }
    specs[#specs + 1] = spec
    if spec.kind == 'K' then
      spec.parts = {}
      for field in string.gmatch(spec.attr, '[^,]+') do
        local n = #spec.parts + 1
        spec.parts[n] = { field = field, numeric = string.sub(numeric, n, n) == 'n' }
        need(field)
      end
    else
      need(spec.attr)
    end
    need(spec.scope)
    if spec.kind == 'C' then
      need('#ci:' .. spec.attr)
    end
  end
  if specListCount >= 1000 then
    specLists, specListCount = {}, 0
  end
  specLists[text], specListCount = { specs, fields }, specListCount + 1
  return specs, fields
end

-- field -> stored value or false, for the given fields of hash `key`.
local function readValues(key, fields)
  local values = {}
  if #fields > 0 then
    local stored = redis.call('HMGET', key, unpack(fields))
    for i, field in ipairs(fields) do
      values[field] = stored[i]
    end
  end
  return values
end

-- The fields the entries of `spec` are computed from (a spec made by readSpecs).
local function specFields(spec)
  local read = {}
  if spec.kind == 'K' then
    for _, part in ipairs(spec.parts) do
      read[#read + 1] = part.field
    end
  else
    read[1] = spec.attr
  end
  if spec.scope ~= '' then
    read[#read + 1] = spec.scope
  end
  if spec.kind == 'C' then
    read[#read + 1] = '#ci:' .. spec.attr
  end
  return read
end

local function sameEntry(spec, before, after)
  if spec.kind == 'K' then
    for _, part in ipairs(spec.parts) do
      if before[part.field] ~= after[part.field] then
        return false
      end
    end
    return true
  end
  return before[spec.attr] == after[spec.attr]
    and (spec.scope == '' or before[spec.scope] == after[spec.scope])
    and (spec.kind ~= 'C' or before['#ci:' .. spec.attr] == after['#ci:' .. spec.attr])
end
