-- draw-ids.lua: draw the sequence ids of a bulk create of objects that need no check before their write
-- (saveMany of such a model), ahead of the writes.
-- KEYS[1]  the model's sequence (string)
-- KEYS[2]  the model's `all` zset (same hash tag)
-- ARGV[1]  how many ids to draw
-- Returns: the last id drawn (INCRBY's reply); the ids are the `count` numbers up to it.
-- Guarantees: the sequence moves only when every id can be drawn: a sequence or `all` of another type is refused
-- (key-types.lua), and so is a draw whose last id would pass 2^53 - 1 (as sequence-ids.lua refuses one); a
-- sequence holding no integer is refused by INCRBY itself, which then changes nothing.
--!include key-types.lua
--!include sequence-ids.lua

expectType(KEYS[1], 'string')
expectType(KEYS[2], 'zset')
-- a value that is no number is left to INCRBY to refuse
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current then
  sequenceText(current + tonumber(ARGV[1]), KEYS[1])
end
return redis.call('INCRBY', KEYS[1], ARGV[1])
