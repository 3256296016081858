-- repair-expiry.lua: give back their `exp` entries to objects whose hash has a TTL, after repair() deleted an
-- `exp` key of another type (src/integrity/check-model-keys.ts); one batch of ids per call.
-- KEYS[1]  the model's key base (object keys and `exp` derive from it, same hash tag)
-- ARGV     the ids (of `all`)
-- Returns: how many `exp` entries were written.
-- Guarantees: each entry is the time the hash expires (its PTTL now), as objects.lua's sweepDue records a TTL
-- changed by hand, so that the sweep removes the object with its entries once it has expired.
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include objects.lua

local base = KEYS[1]
local written = 0
for _, id in ipairs(ARGV) do
  local left = redis.call('PTTL', base .. ':obj:' .. id)
  if left > 0 then
    redis.call('ZADD', base .. ':exp', string.format('%d', nowMs() + left), id)
    written = written + 1
  end
end
return written
