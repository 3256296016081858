-- trim-cap.lua: trim one capped index key back to its first `keep` objects, as a write's trim does (repair() of
-- a model or group over its cap: a smaller `keep` deployed, objects written before the cap, a hand-made write).
-- KEYS[1]  the model's `all` zset;  KEYS[2] the model's key base;  KEYS[3] the cap's index key: the model's, or
--          one group's of a cap per value (`<base>:idx:<by>@<per>:<value>`, same hash tag)
-- ARGV[1]  how many to keep;  ARGV[2] 'asc' keeps the lowest, 'desc' the highest;  ARGV[3] '1' when ids are
--          sequence numbers (ties ordered numerically)
-- ARGV[4]  q; then q index specs: every index of the model (an evicted object without a memo has its entries
--          found from its stored values)
-- Returns: how many objects were evicted.
-- Guarantees: the objects past the first `keep` in query order are removed whole, each with its entries, memo
-- and `all` entry (caps.lua's trimCap); objects whose time has come are swept first and take no place. Every key
-- it reads is checked before the first write; judged on what is stored when it runs.
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include objects.lua
--!include pages.lua
--!include caps.lua

local all, base, capKey = KEYS[1], KEYS[2], KEYS[3]
expectType(all, 'zset')
expectType(base .. ':exp', 'zset')
expectType(capKey, 'zset')
local specs, fields = readSpecs(5, tonumber(ARGV[4]))
return trimCap(base, all, capKey, tonumber(ARGV[1]), ARGV[2] == 'asc', ARGV[3] == '1', specs, fields)
