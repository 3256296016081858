-- insert-plain.lua: write a chunk of new objects that need no check before the write and keep nothing beside it
-- (sequence ids, no unique value, no foreign key, no TTL, memo or cap), with their `all` and index entries.
-- The client has drawn the ids (INCRBY of the model's sequence) and computed the index entries from the fields,
-- as indexes.lua's entryOf does from stored values: a new object's hash holds exactly those fields and #id.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the model's key base `<prefix>:{<Model>}`; object and index keys derive from it (same hash tag)
-- ARGV[1]  n, the number of objects; then per object: its id, m, and m field, value pairs
-- then     k, the number of index keys; then per key: 'S' (a set) or 'Z' (a sorted set), the key's suffix after
--          the base (':idx:topic:t3'), c, and c arguments: ids for a set, score, member pairs for a sorted set
-- Returns: n.
-- Guarantees: one script, so every object's hash, its `all` entry and its index entries appear together to every
-- client (invariants 1 to 3); sequence ids are fresh (invariant 5), so no hash exists under them to merge into.
--!include indexes.lua

local all, base = KEYS[1], KEYS[2]

local count = tonumber(ARGV[1])
local listed = {}
local at = 2
for i = 1, count do
  local id, fieldCount = ARGV[at], tonumber(ARGV[at + 1])
  local key = base .. ':obj:' .. id
  callWithArgs('HSET', key, at + 2, at + 1 + 2 * fieldCount, { '#id', id })
  listed[2 * i - 1] = id
  listed[2 * i] = id
  at = at + 2 + 2 * fieldCount
end
for start = 1, #listed, 1000 do
  redis.call('ZADD', all, unpack(listed, start, math.min(start + 999, #listed)))
end

local keyCount = tonumber(ARGV[at])
at = at + 1
for _ = 1, keyCount do
  local kind, key, argCount = ARGV[at], base .. ARGV[at + 1], tonumber(ARGV[at + 2])
  callWithArgs(kind == 'S' and 'SADD' or 'ZADD', key, at + 3, at + 2 + argCount)
  at = at + 3 + argCount
end
return count
