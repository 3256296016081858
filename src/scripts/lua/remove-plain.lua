-- remove-plain.lua: delete objects of a model that keep nothing beside their hash and `all` entry (no index,
-- memo or relation): remove() of one, removeMany() of many.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the model's key base (object keys and `exp` derive from it, same hash tag)
-- ARGV[1]  '1' for an expirable model (its objects may have an `exp` entry), else '0'
-- ARGV[2..] the ids
-- Returns: one value per id, in order: 1 when its hash was there, else 0 (an object whose time had come had an
--          `all` entry alone).
-- Guarantees: every key written is checked first (key-types.lua): a key of another type refuses the whole call
-- before anything is deleted; otherwise each hash goes with its `all` (and `exp`) entry (invariants 1 and 2).
--!include key-types.lua

local all, base, expirable = KEYS[1], KEYS[2], ARGV[1] == '1'
expectType(all, 'zset')
if expirable then
  expectType(base .. ':exp', 'zset')
end
for i = 2, #ARGV do
  expectType(base .. ':obj:' .. ARGV[i], 'hash')
end
local replies = {}
for i = 2, #ARGV do
  local id = ARGV[i]
  replies[i - 1] = redis.call('DEL', base .. ':obj:' .. id)
  redis.call('ZREM', all, id)
  if expirable then
    redis.call('ZREM', base .. ':exp', id)
  end
end
return replies
