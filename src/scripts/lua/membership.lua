-- membership.lua: add or remove one many-to-many membership, on both sides at once.
-- KEYS[1]  this object's hash;  KEYS[2] the related object's hash
-- KEYS[3]  this object's set of related ids;  KEYS[4] the related object's set holding this side's ids
-- ARGV[1]  'add' | 'remove';  ARGV[2] this object's id;  ARGV[3] the related object's id
-- Returns: 1; or {'missing', 'self' | 'other'} when adding and an object does not exist (nothing written).
-- Guarantees: both sides change together (invariant 6). On Redis Cluster the two models must share a group.
if ARGV[1] == 'add' then
  if redis.call('EXISTS', KEYS[1]) == 0 then
    return { 'missing', 'self' }
  end
  if redis.call('EXISTS', KEYS[2]) == 0 then
    return { 'missing', 'other' }
  end
  redis.call('SADD', KEYS[3], ARGV[3])
  redis.call('SADD', KEYS[4], ARGV[2])
else
  redis.call('SREM', KEYS[3], ARGV[3])
  redis.call('SREM', KEYS[4], ARGV[2])
end
return 1
