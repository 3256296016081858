-- load.lua: read any number of objects at one point in time.
-- KEYS[1]        the model's `all` zset
-- KEYS[2 .. n+1] the objects' hashes, in the order of ARGV
-- ARGV[1 .. n]   the ids
-- Returns: one element per id: the flat HGETALL field/value list, or nil when the id is not in `all`.
-- Guarantees: membership and attributes are read together, so a missing object is told apart from one
-- whose attributes are all absent, and no object is seen half-deleted.
local out = {}
for i = 1, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    out[i] = redis.call('HGETALL', KEYS[i + 1])
  else
    out[i] = false
  end
end
return out
