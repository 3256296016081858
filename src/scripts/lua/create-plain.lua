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
-- deleted first, so nothing is merged into.
--!include indexes.lua
--!include sequence-ids.lua

local base = KEYS[3]
local id = sequenceText(redis.call('INCR', KEYS[1]))
local key = base .. ':obj:' .. id
local fieldCount = tonumber(ARGV[1])
-- a stray hash under the id (another program's, or the sequence set back) is replaced, not merged into
redis.call('DEL', key)
callWithArgs('HSET', key, 2, 1 + 2 * fieldCount, { '#id', id })
redis.call('ZADD', KEYS[2], id, id)

local at = 2 + 2 * fieldCount
local entryCount = tonumber(ARGV[at])
at = at + 1
for _ = 1, entryCount do
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
