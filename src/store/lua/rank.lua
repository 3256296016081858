-- rank.lua: how many objects come before one in an ordered index, in the order `orderBy` reads it (Model.rank).
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the model's key base `<prefix>:{<Model>}` (the index keys and the object's hash derive from it)
-- ARGV[1]  the object's id
-- ARGV[2..5] the index's spec (indexes.lua): kind 'Z' (by score) or 'L' (lexicographic), attribute, scope, numeric
-- ARGV[6]  '1' descending, else '0'
-- ARGV[7]  '1' when ids are sequence numbers (ties then ordered numerically, as pages.lua orders them), else '0'
-- ARGV[8]  'object': the object's entry, from its stored values; 'value': of an object stored in another shard of
--          a sharded model, whose values follow: ARGV[9] the attribute's value, ARGV[10] the scope's value (each
--          with a leading '=' when present, '' when absent)
-- Returns: 'object': the object's 0-based position in the index, or false when it does not exist (or has
--          expired) or is in no such index (its scope attribute is absent); 'value': { the number of objects
--          before it, then (ids not in sequence order) the ids tied with it by score, for the client to order }.
-- Guarantees: objects whose time has come are swept first (as query.lua does), so the position counts live
-- objects only and is the one `find({ orderBy })` gives the object at that instant: ties by id, sequence ids
-- numerically, descending the exact reverse. One index key read; O(log N), plus the ties of its score.
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include objects.lua

local all, base, id = KEYS[1], KEYS[2], ARGV[1]
local specs, fields = readSpecs(2, 1)
local spec = specs[1]
local desc, numeric, mode = ARGV[6] == '1', ARGV[7] == '1', ARGV[8]

expectType(all, 'zset')
local values = {}
if mode == 'object' then
  local stored = callOfType('hash', 'HMGET', base .. ':obj:' .. id, unpack(fields))
  for i, field in ipairs(fields) do
    values[field] = stored[i]
  end
else
  local function given(text)
    return text ~= '' and string.sub(text, 2) or false
  end
  values[spec.attr] = given(ARGV[9])
  if spec.scope ~= '' then
    values[spec.scope] = given(ARGV[10])
  end
end
local kind, key, member = entryOf(base, spec, values, id)
if not kind then
  return false
end
expectType(key, 'zset')
sweepDue(base, all, -1)
if mode == 'object' and not (redis.call('ZSCORE', all, id) and isHash(base .. ':obj:' .. id)) then
  return false
end

if spec.kind == 'L' then
  -- a lex member ends with len(id) id: ties are in (length, bytes) order, numeric order for sequence ids
  if mode == 'object' then
    return (desc and redis.call('ZREVRANK', key, member) or redis.call('ZRANK', key, member)) or false
  end
  return { desc and redis.call('ZLEXCOUNT', key, '(' .. member, '+') or redis.call('ZLEXCOUNT', key, '-', '(' .. member) }
end

local score = values[spec.attr] or 'inf'
if mode == 'object' then
  score = redis.call('ZSCORE', key, id)
  if not score then
    return false
  end
  if not numeric then
    -- ties in member (id) bytes order, exactly as Redis ranks them
    return desc and redis.call('ZREVRANK', key, id) or redis.call('ZRANK', key, id)
  end
end
local before = desc and redis.call('ZCOUNT', key, '(' .. score, '+inf') or redis.call('ZCOUNT', key, '-inf', '(' .. score)
local ties = redis.call('ZRANGE', key, score, score, 'BYSCORE')
if not numeric then
  -- another shard's ties: ordered by the client, by bytes as Redis orders them (Lua compares by locale)
  local reply = { before }
  for _, tie in ipairs(ties) do
    if tie ~= id then
      reply[#reply + 1] = tie
    end
  end
  return reply
end
-- sequence ids tied by score are ordered numerically: by length, then by their digits
for _, tie in ipairs(ties) do
  local earlier = #tie < #id or (#tie == #id and tie < id)
  if tie ~= id and earlier ~= desc then
    before = before + 1
  end
end
if mode == 'object' then
  return before
end
return { before }
