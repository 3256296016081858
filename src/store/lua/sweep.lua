-- sweep.lua: delete objects whose time has come, with every index and unique entry they had.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the model's key base (hashes, memos, `exp` and index keys derive from it, same hash tag)
-- ARGV[1]  the most objects to delete in this call (the caller loops, so Redis is never blocked long)
-- Returns: how many objects were deleted.
-- Guarantees: each expired object is removed whole, from its memo: no dependence on keyspace notifications.
-- Of what a memo records, only the object's own entries are removed (objects.lua's memoEntries).
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include objects.lua

return sweepDue(KEYS[2], KEYS[1], tonumber(ARGV[1]))
