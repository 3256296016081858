-- unlock.lua: release an object's lock, only by its holder.
-- KEYS[1]  the lock key <base>:lock:<id>
-- ARGV[1]  the holder's token
-- Returns: 1 when released, 0 when the lock had expired or belongs to someone else (left alone).
-- Guarantees: a holder whose lock expired and was taken by another never releases the other's lock.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
