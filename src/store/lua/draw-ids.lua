-- draw-ids.lua: draw the sequence ids of a bulk create of objects that need no check before their write
-- (saveMany of such a model), ahead of the writes.
-- KEYS[1]  the model's sequence (string)
-- KEYS[2]  the model's `all` zset (same hash tag)
-- ARGV[1]  how many ids to draw
-- Returns: the last id drawn (INCRBY's reply); the ids are the `count` numbers up to it.
-- Guarantees: the sequence moves only when every id can be drawn: `all` of another type is refused
-- (key-types.lua) before the draw; a sequence of another type or holding no integer is refused by INCRBY itself,
-- which then changes nothing ('RRTYPE ...', 'RRNOINT ...'); a draw whose last id would pass 2^53 - 1 is taken
-- back and refused (sequence-ids.lua's drawSequence).
--!include key-types.lua
--!include sequence-ids.lua

expectType(KEYS[2], 'zset')
return drawSequence(KEYS[1], ARGV[1])
