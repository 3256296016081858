-- spec-lists.lua: reading index specs from ARGV (the four strings per index indexes.lua's header describes),
-- each list read once per library load; a library used with indexes.lua by every script that takes specs.
-- KEYS/ARGV: none of its own: the positions are the caller's.

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
    -- a composite unique (M) or compound index (K): the parts' fields joined by '+', a numeric flag per part
    if spec.kind == 'M' or spec.kind == 'K' then
      spec.parts, spec.partNumeric = {}, {}
      for field in string.gmatch(spec.attr, '[^+]+') do
        spec.parts[#spec.parts + 1] = field
        spec.partNumeric[#spec.parts] = string.sub(numeric, #spec.parts, #spec.parts) == '1'
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
