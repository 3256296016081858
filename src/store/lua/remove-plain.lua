-- remove-plain.lua: delete objects of a model that keep nothing beside their hash and `all` entry (no index,
-- memo or relation): remove() of one, removeMany() of many.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the model's key base (object keys and `exp` derive from it, same hash tag)
-- ARGV[1]  '1' for an expirable model (its objects may have an `exp` entry), else '0'
-- ARGV[2..] the ids
-- Returns: one value per id, in order: 1 when its hash was there, else 0 (an object whose time had come had an
--          `all` entry alone).
-- Guarantees: a key of another type (key-types.lua) refuses the whole call before anything is deleted: the
-- objects' keys and `exp` are checked first, and `all` by the call's first write, its first ZREM, which Redis
-- refuses whole; otherwise each hash goes with its `all` (and `exp`) entry (invariants 1 and 2).
--!include key-types.lua

local all, base, expirable = KEYS[1], KEYS[2], ARGV[1] == '1'
if expirable then
  expectType(base .. ':exp', 'zset')
end
for i = 2, #ARGV do
  expectType(base .. ':obj:' .. ARGV[i], 'hash')
end
local replies = {}
for i = 2, #ARGV do
  local id = ARGV[i]
  if i == 2 then
    callOfType('zset', 'ZREM', all, id)
  else
    redis.call('ZREM', all, id)
  end
  if expirable then
    redis.call('ZREM', base .. ':exp', id)
  end
  replies[i - 1] = redis.call('DEL', base .. ':obj:' .. id)
end
return replies
