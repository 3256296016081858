-- raise-sequence.lua: raise a model's id sequence to at least the largest id in use.
-- KEYS[1]  the model's `seq`;  ARGV[1] the largest sequence id found
-- Returns: the sequence's value afterwards. Never lowers it (invariant 5: ids are never reused).
local current = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
local largest = tonumber(ARGV[1])
if current < largest then
  redis.call('SET', KEYS[1], ARGV[1])
  return ARGV[1]
end
return string.format('%d', current)
