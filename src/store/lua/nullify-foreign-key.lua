-- nullify-foreign-key.lua: clear a foreign key that names a parent which does not exist.
-- KEYS[1]  the child model's `all`;  KEYS[2] the child model's key base
-- KEYS[3]  the parent model's `all`; KEYS[4] the parent model's key base (on Redis Cluster the two models
--          must share a group, as for every relation script)
-- ARGV[1]  the child's id;  ARGV[2] the foreign key field;  ARGV[3] the parent id it was seen to hold
-- then     k index specs (indexes.lua): the child's indexes on or scoped by the foreign key
-- Returns: 1 when cleared; 0 when the field changed meanwhile or the parent exists now (a listed hash: a key
--          of another type is no parent).
-- Guarantees: invariant 6, with the index entries (and memo) that depend on the field moved in the same step.
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua

local base, id, fk = KEYS[2], ARGV[1], ARGV[2]
local key = base .. ':obj:' .. id
if redis.call('HGET', key, fk) ~= ARGV[3] then
  return 0
end
if redis.call('ZSCORE', KEYS[3], ARGV[3]) and isHash(KEYS[4] .. ':obj:' .. ARGV[3]) then
  return 0
end
local specs, fields = readSpecs(5, tonumber(ARGV[4]))
clearField(base, id, fk, specs, fields)
return 1
