-- claim-unique.lua: claims one unique value of a sharded model for an object, across its shards.
-- KEYS[1]  the value's claim key <prefix>:{<Model>@<attr>:<sha1 of value>}:claim (src/keys/claim-keys.ts)
-- ARGV[1]  the id of the object taking the value
-- ARGV[2]  '' to claim a free value; else the exact claim to replace (a stale claim the client found: its
--          holder no longer holds the value), so that two clients replacing one stale claim cannot both win
-- Returns: 1 when the value is now claimed by ARGV[1] and was not before (it was free, or the stale claim was
--          still ARGV[2]); 2 when ARGV[1] held the claim already (its time is renewed): the caller did not take
--          it and must not release it on a failure; else {claim, age in ms}: the claim standing in the way
--          ('<id> <ms>').
-- Guarantees: a claim names one id at a time (compare-and-set in one script); the time is the server's.
local claim = redis.call('GET', KEYS[1])
local time = redis.call('TIME')
local now = time[1] * 1000 + math.floor(time[2] / 1000)
if claim and string.match(claim, '^(%S+)') == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. now)
  return 2
end
if not claim or claim == ARGV[2] then
  redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. now)
  return 1
end
return { claim, now - tonumber(string.match(claim, ' (%d+)$') or now) }
