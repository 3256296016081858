-- remove.lua: delete one object.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the object's hash
-- ARGV[1]  the id
-- Returns: 1 when the object existed, else 0.
-- Guarantees: the hash and its `all` entry disappear together (invariants 1, 2).
local removed = redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
return removed
