-- increment.lua: add to a counter attribute of one live object, moving its index entries.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the object's hash
-- KEYS[3]  the model's key base (index keys, memo, cap index derive from it, same hash tag)
-- ARGV[1]  the id;  ARGV[2] the counter's field;  ARGV[3] the amount (a decimal number; '-0' for -0)
-- ARGV[4]  the cap's index key ('' none), or a cap per value's stem of its groups' keys; ARGV[5] how many to
--          keep; ARGV[6] the cap's order: 'asc' keeps the lowest, 'desc' the highest, followed for a cap per value
--          by '@', the field of `per` and '#' when it holds numbers (caps.lua's readCap)
-- ARGV[7]  '1' when ids are sequence numbers
-- ARGV[8]  k; then k index specs (kind, attribute, scope, numeric): the indexes touching the counter
-- then     q; then q index specs: when the cap is by this counter, every index of the model (an object the trim
--          evicts without a memo has its entries found from its stored values), else 0
-- Returns: the new value as stored; false when the object does not exist or has expired; {'range'} when the
--          result would not be a finite number; {'unreadable', value} when the counter holds something that is
--          not a number (written by something else): nothing is written in either case.
-- Guarantees: the read, the sum and the write are one script, so concurrent increments never lose one. The
-- sum is a double, as in JavaScript (HINCRBY would refuse '-0' and overflow int64; HINCRBYFLOAT adds in long
-- double and could store what JavaScript cannot read back; whole sums are exact up to 2^53). It is stored as
-- the number codec stores it (numbers.lua): JavaScript's String(n), the shortest that reads back exactly, and
-- '-0' for -0 (so that a scope or unique value is the string a create of that number stores, and a query
-- names). Index entries and the cap follow in the same script (invariant 3); every check happens before the
-- first write. A cap per value trims the object's group (the counter's index is scoped by `per`, so the
-- counter's indexes read its value).
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include objects.lua
--!include pages.lua
--!include caps.lua
--!include numbers.lua

local all, key, base, id, field, amount = KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3]
-- every key read or written is checked before the first write (key-types.lua): refused, the call writes nothing
expectType(all, 'zset')
expectType(key, 'hash')
expectType(base .. ':exp', 'zset')
expectType(base .. ':memo:' .. id, 'hash')
local cap = readCap({}, ARGV[4], ARGV[6])
if ARGV[4] ~= '' and not cap.capPer then
  expectType(ARGV[4], 'zset')
end
if not redis.call('ZSCORE', all, id) then
  return false
end
if redis.call('EXISTS', key) == 0 then
  -- expired: swept, unless a key of another type keeps it (left to check() and repair())
  purgeObject(base, all, id, nil, nil, true)
  return false
end
local specs, fields = readSpecs(9, tonumber(ARGV[8]))
local capSpecsAt = 9 + 4 * tonumber(ARGV[8])
local capSpecs, capFields = readSpecs(capSpecsAt + 1, tonumber(ARGV[capSpecsAt]))
local memo = memoOf(base, id)
local before = readValues(key, fields)
local stored = redis.call('HGET', key, field)
local current = 0
if stored then
  current = isNumberText(stored) and tonumber(stored)
  -- '1e400' has the form but no double: find() refuses it too
  if not current or current == math.huge or current == -math.huge then
    return { 'unreadable', stored }
  end
end
local sum = current + tonumber(amount)
if sum ~= sum or sum == math.huge or sum == -math.huge then
  return { 'range' }
end
local value = numberForm(sum)
local after = {}
for name, stored in pairs(before) do
  after[name] = stored
end
after[field] = value
local capKey = ARGV[4] ~= '' and capGroupKey(cap, after)
if capKey then
  expectType(capKey, 'zset')
end
for _, spec in ipairs(specs) do
  if not sameEntry(spec, before, after) then
    for _, values in ipairs({ before, after }) do
      eachEntry(base, spec, values, id, function(kind, entryKey)
        expectType(entryKey, entryKeyType(kind))
      end)
    end
  end
end
redis.call('HSET', key, field, value)
for _, spec in ipairs(specs) do
  if not sameEntry(spec, before, after) then
    removeEntry(base, spec, before, id, memo)
    addEntry(base, spec, after, id, memo)
  end
end
if capKey then
  trimCap(base, all, capKey, tonumber(ARGV[5]), cap.capKeepLowest, ARGV[7] == '1', capSpecs, capFields)
end
return value
