-- load.lua: read any number of objects at one point in time.
-- KEYS[1]        the model's `all` zset
-- KEYS[2 .. n+1] the objects' hashes, in the order of ARGV
-- ARGV[1 .. n]   the ids
-- Returns: one element per id: the flat HGETALL field/value list, or nil when the id is not in `all` or its
-- hash has expired (an object's hash always holds `#id`, so it is never empty while the object lives).
-- Guarantees: membership and attributes are read together, so a missing object is told apart from one
-- whose attributes are all absent, no object is seen half-deleted, and an expired one is invisible at once.
local out = {}
for i = 1, #ARGV do
  out[i] = false
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    local fields = redis.call('HGETALL', KEYS[i + 1])
    if #fields > 0 then
      out[i] = fields
    end
  end
end
return out
