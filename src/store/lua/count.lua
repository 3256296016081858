-- count.lua: the number of live objects of a model.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the model's `exp` zset (id -> expiry time in ms)
-- ARGV     none
-- Returns: ZCARD all minus the objects whose time has come but are not swept yet.
-- Guarantees: exact at the instant it runs, expired objects excluded, in O(log N); it writes nothing.
-- Flags: no-writes (a read: FCALL_RO)
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
return redis.call('ZCARD', KEYS[1]) - redis.call('ZCOUNT', KEYS[2], '-inf', now)
