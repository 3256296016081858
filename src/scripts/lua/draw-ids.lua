-- draw-ids.lua: draw the sequence ids of a bulk create of objects that need no check before their write
-- (saveMany of such a model), ahead of the writes.
-- KEYS[1]  the model's sequence (string)
-- KEYS[2]  the model's `all` zset (same hash tag)
-- ARGV[1]  how many ids to draw
-- Returns: the last id drawn (INCRBY's reply); the ids are the `count` numbers up to it.
-- Guarantees: a sequence or `all` of another type is refused (key-types.lua) before the sequence moves.
--!include key-types.lua

expectType(KEYS[1], 'string')
expectType(KEYS[2], 'zset')
return redis.call('INCRBY', KEYS[1], ARGV[1])
