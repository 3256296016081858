-- create.lua: insert one new object.
-- KEYS[1]  the model's sequence (string, INCR)
-- KEYS[2]  the model's `all` zset
-- KEYS[3]  the object key prefix; the object's hash is KEYS[3] .. id (same hash tag, same slot)
-- ARGV[1]  the id, or '' to take the next value of the sequence
-- ARGV[2..] field, value pairs of the attributes to store
-- Returns: the id; or false when ARGV[1] names an id that exists already (nothing is written).
-- Guarantees: the hash and its `all` entry appear together or not at all (invariants 1, 2), the sequence
-- is >= every sequence id handed out (invariant 5), and a stray hash at the key is replaced, never merged.
local id = ARGV[1]
local score = 0
if id == '' then
  id = tostring(redis.call('INCR', KEYS[1]))
  score = id
elseif redis.call('ZSCORE', KEYS[2], id) then
  return false
end
local key = KEYS[3] .. id
redis.call('DEL', key)
redis.call('HSET', key, '#id', id, unpack(ARGV, 2))
redis.call('ZADD', KEYS[2], score, id)
return id
