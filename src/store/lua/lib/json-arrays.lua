-- json-arrays.lua: Model.update's array operators (push, pull, addToSet) applied to a stored JSON array, inside
-- the script that writes it; a library inlined into upsert.lua.
-- KEYS/ARGV: none of its own.
-- Elements are kept as their JSON text, never decoded and encoded again (cjson would write numbers with 14
-- digits and an empty array as {}): what is not pushed or pulled stays byte for byte as it was. Values compare by
-- their text, as JSON.stringify writes them (array-operations.ts): strings, numbers, booleans and null by value.

-- Text `text` without the white space around it.
local function trimmed(text)
  return string.match(text, '^%s*(.-)%s*$')
end

-- The end of the JSON string whose opening quote is at `at` in `raw` (the position of its closing quote), or nil.
local function stringEnd(raw, at)
  local scan = at + 1
  while true do
    local found = string.find(raw, '["\\]', scan)
    if not found then
      return nil
    end
    if string.sub(raw, found, found) == '"' then
      return found
    end
    scan = found + 2
  end
end

-- The top-level elements of JSON text `raw`, each as its text, or nil when `raw` is no JSON array.
local function jsonArrayElements(raw)
  local first = string.find(raw, '%S')
  if not first or string.sub(raw, first, first) ~= '[' or not pcall(cjson.decode, raw) then
    return nil
  end
  local elements, depth, start, pos = {}, 0, first + 1, first + 1
  while true do
    local at, _, char = string.find(raw, '([%[%]{}",])', pos)
    if not at then
      return nil
    end
    pos = at + 1
    if char == '"' then
      local close = stringEnd(raw, at)
      if not close then
        return nil
      end
      pos = close + 1
    elseif char == '[' or char == '{' then
      depth = depth + 1
    elseif depth > 0 and (char == ']' or char == '}') then
      depth = depth - 1
    elseif depth == 0 and (char == ',' or char == ']') then
      local text = trimmed(string.sub(raw, start, at - 1))
      if text ~= '' then
        elements[#elements + 1] = text
      end
      if char == ']' then
        return elements
      end
      start = at + 1
    end
  end
end

-- The JSON text of array `raw` (false: no value yet, an empty array) after `operator` with the element texts
-- `values`: push appends them all, addToSet those not in it yet (once each), pull removes every element equal
-- to one of them. nil when `raw` holds no JSON array.
local function applyArrayOperator(raw, operator, values)
  local elements = {}
  if raw then
    elements = jsonArrayElements(raw)
    if not elements then
      return nil
    end
  end
  if operator == 'push' then
    for _, value in ipairs(values) do
      elements[#elements + 1] = value
    end
  elseif operator == 'addToSet' then
    local present = {}
    for _, element in ipairs(elements) do
      present[element] = true
    end
    for _, value in ipairs(values) do
      if not present[value] then
        present[value] = true
        elements[#elements + 1] = value
      end
    end
  else
    local pulled, kept = {}, {}
    for _, value in ipairs(values) do
      pulled[value] = true
    end
    for _, element in ipairs(elements) do
      if not pulled[element] then
        kept[#kept + 1] = element
      end
    end
    elements = kept
  end
  return '[' .. table.concat(elements, ',') .. ']'
end
