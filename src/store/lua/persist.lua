-- persist.lua: remove the time to live of one live object.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the object's hash
-- KEYS[3]  the model's key base
-- ARGV[1]  the id;  ARGV[2] '1' when the model keeps memos anyway (a capped model evicts through them)
-- Returns: 1, or 0 when the object does not exist or has expired.
-- Guarantees: TTL and `exp` entry go together; the object then lives until it is removed (or evicted by a cap,
-- which then still finds every entry in its memo).
--!include key-types.lua

local all, key, base, id = KEYS[1], KEYS[2], KEYS[3], ARGV[1]
-- every key read or written is checked first (key-types.lua): refused, the call writes nothing
expectType(all, 'zset')
expectType(key, 'hash')
expectType(base .. ':exp', 'zset')
-- the memo it deletes: one of another type is another program's, left as it is
expectType(base .. ':memo:' .. id, 'hash')
if not redis.call('ZSCORE', all, id) or redis.call('EXISTS', key) == 0 then
  return 0
end
redis.call('PERSIST', key)
redis.call('ZREM', base .. ':exp', id)
if ARGV[2] ~= '1' then
  redis.call('DEL', base .. ':memo:' .. id)
end
return 1
