-- expect-types.lua: checking the Redis types of keys before a write that is not a script (a MULTI of native
-- commands, whose commands each run even when one fails), or to name the key a refused command read.
-- KEYS     the keys to check (of one hash tag)
-- ARGV     the type each must hold, as TYPE names it (string, hash, set, zset), in the order of KEYS
-- Returns: 1 when every key is missing or of its type; otherwise the RRTYPE error of key-types.lua (refuseOtherType).
-- Guarantees: writes nothing.
-- Flags: no-writes (a read: FCALL_RO)
--!include key-types.lua

for i, key in ipairs(KEYS) do
  expectType(key, ARGV[i])
end
return 1
