-- update.lua: write the changed attributes of one existing object.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the object's hash
-- ARGV[1]  the id
-- ARGV[2]  n, the number of field, value pairs that follow
-- ARGV[3 .. 2+2n]  field, value pairs to set (HSET)
-- ARGV[3+2n ..]    fields to remove (HDEL: attributes set to undefined or null)
-- Returns: 1, or 0 when the object does not exist (nothing is written: a deleted object is never revived).
-- Guarantees: only the named fields change, together; concurrent writers of other fields are not overwritten.
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return 0
end
local n = tonumber(ARGV[2])
if n > 0 then
  redis.call('HSET', KEYS[2], unpack(ARGV, 3, 2 + 2 * n))
end
if #ARGV > 2 + 2 * n then
  redis.call('HDEL', KEYS[2], unpack(ARGV, 3 + 2 * n))
end
return 1
