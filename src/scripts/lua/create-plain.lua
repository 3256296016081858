-- create-plain.lua: create one object that needs no check before the write and keeps nothing beside it (a
-- sequence id of an unsharded model, no unique value, no foreign key to check, no TTL, memo or cap), with its
-- `all` and index entries. save.lua creates every other object.
-- The client computes the index entries from the fields it writes, as indexes.lua's entryOf does from stored
-- values (a new object's hash holds exactly those fields and #id); only the id is left for the script to add.
-- KEYS[1]  the model's sequence (string)
-- KEYS[2]  the model's `all` zset
-- KEYS[3]  the model's key base `<prefix>:{<Model>}`; object and index keys derive from it (same hash tag)
-- ARGV[1]  n; then n field, value pairs
-- then     k; then k entries, each a kind, the index key's suffix after the base, and for 'Z' and 'L' one more:
--            'S' set                  member: the id
--            'Z' sorted by value      score: that argument, member: the id
--            'L' lexicographic        score 0, member: that argument (esc(value) \0\0), then len(id) and the id
-- Returns: the id, the next value of the sequence.
-- Guarantees: one script, so the hash, its `all` entry and its index entries appear together to every client
-- (invariants 1 to 3); the id is fresh (invariant 5), and a stray hash under it (written by another program) is
-- deleted first, so nothing is merged into. A key of another type (key-types.lua) refuses the call before it
-- writes anything.
--!include key-types.lua
--!include indexes.lua
--!include sequence-ids.lua

local base = KEYS[3]
local fieldCount = tonumber(ARGV[1])
local entriesAt = 2 + 2 * fieldCount

-- every key written is checked first (key-types.lua): refused, the call writes nothing
expectType(KEYS[1], 'string')
expectType(KEYS[2], 'zset')
local at = entriesAt + 1
for _ = 1, tonumber(ARGV[entriesAt]) do
  local kind = ARGV[at]
  expectType(base .. ARGV[at + 1], kind == 'S' and 'set' or 'zset')
  at = at + (kind == 'S' and 2 or 3)
end

local id = sequenceText(redis.call('INCR', KEYS[1]))
local key = base .. ':obj:' .. id
-- a stray hash under the id (another program's, or the sequence set back) is replaced, not merged into
redis.call('DEL', key)
callWithArgs('HSET', key, 2, 1 + 2 * fieldCount, { '#id', id })
redis.call('ZADD', KEYS[2], id, id)

at = entriesAt + 1
for _ = 1, tonumber(ARGV[entriesAt]) do
  local kind, indexKey = ARGV[at], base .. ARGV[at + 1]
  if kind == 'S' then
    redis.call('SADD', indexKey, id)
    at = at + 2
  elseif kind == 'Z' then
    redis.call('ZADD', indexKey, ARGV[at + 2], id)
    at = at + 3
  else
    redis.call('ZADD', indexKey, 0, ARGV[at + 2] .. string.char(#id) .. id)
    at = at + 3
  end
end
return id
