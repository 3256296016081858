-- composed-entries.lua: what the entries of tag and compound indexes (indexes.lua's T and K specs) are made
-- from; a library inlined before indexes.lua.
-- KEYS/ARGV: none of its own.

-- A number's stored form as 16 hex digits that sort as the numbers do: its IEEE 754 bits, big-endian, with the
-- sign bit flipped for positives and every bit flipped for negatives (-0 is 0). src/keys/compound-member.ts
-- makes the same digits for query bounds.
local function sortableNumber(text)
  local number = tonumber(text)
  if not number or number ~= number then
    return nil
  end
  if number == 0 then
    number = 0
  end
  local bytes = { string.byte(struct.pack('>d', number), 1, 8) }
  local negative = bytes[1] >= 128
  for i = 1, 8 do
    if negative then
      bytes[i] = 255 - bytes[i]
    elseif i == 1 then
      bytes[i] = bytes[i] + 128
    end
  end
  return string.format('%02x%02x%02x%02x%02x%02x%02x%02x', unpack(bytes))
end

-- The member of a compound index's entry: each part's sortable form followed by \0\0, then len(id) id. A
-- numeric part whose stored text is no number is read as absent.
local function compoundMember(spec, values, id)
  local out = {}
  for i, field in ipairs(spec.parts) do
    local value = values[field]
    if value and spec.partNumeric[i] then
      value = sortableNumber(value)
    elseif value then
      value = (string.gsub(value, '%z', '\0\1'))
    end
    out[i] = value or '\255'
  end
  return table.concat(out, '\0\0') .. '\0\0' .. string.char(#id) .. id
end

-- The distinct string elements of a tag attribute's stored JSON array, in order; none for anything else.
local function tagElements(raw)
  if not raw then
    return {}
  end
  local ok, decoded = pcall(cjson.decode, raw)
  if not ok or type(decoded) ~= 'table' then
    return {}
  end
  local elements, seen = {}, {}
  for _, element in ipairs(decoded) do
    if type(element) == 'string' and not seen[element] then
      seen[element] = true
      elements[#elements + 1] = element
    end
  end
  return elements
end
