-- lock.lua: take an object's lock if it is free.
-- KEYS[1]  the lock key <base>:lock:<id>
-- ARGV[1]  a random token naming the holder;  ARGV[2] how long the lock lives (ms) if never released
-- Returns: 1 when taken, 0 when someone else holds it.
-- Guarantees: one holder at a time (SET NX); a holder that dies frees the lock when it expires.
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 1
end
return 0
