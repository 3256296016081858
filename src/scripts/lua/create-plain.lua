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
-- (invariants 1 to 3); the id is fresh (invariant 5). A hash already under the id (another program's, or under
-- a sequence set back) is replaced, not merged into; a key of another type there is refused and left as it is
-- (the id stays drawn, so the next create takes the next one). A key of another type at `all` or at an index
-- key (key-types.lua) refuses the call with nothing written: `all` and the index entries are added each with a
-- command Redis refuses whole on a key of another type, and a refusal takes back what came before it (the draw,
-- each member the call added, the score a member already there had) before the call is refused; the hash is
-- written last. So the only TYPE asked is the new key's, in place of a DEL. A draw of 1 is taken back by
-- deleting the sequence (a sequence of 0 and none draw the same ids); a draw past 2^53 - 1 is taken back and
-- refused (sequence-ids.lua).
--!include key-types.lua
--!include indexes.lua
--!include sequence-ids.lua

-- The functions take what they need as arguments: a function that captures the script's locals costs Redis
-- about a microsecond on every call, even when it is never called.

-- Entries whose writes are kept as bits of one number (below): a Lua number holds 53 bits exactly.
local BITS = 50

-- Entry n's command, key, score (nil for a set) and member, from its arguments at ARGV position `at` (under key
-- base `base`, for the object `id`), and the position of the next entry's.
local function entryAt(at, base, id)
  local kind, indexKey = ARGV[at], base .. ARGV[at + 1]
  if kind == 'S' then
    return 'SADD', indexKey, nil, id, at + 2
  elseif kind == 'Z' then
    return 'ZADD', indexKey, ARGV[at + 2], id, at + 3
  end
  return 'ZADD', indexKey, 0, ARGV[at + 2] .. string.char(#id) .. id, at + 3
end

-- Takes back the writes before entry `upTo` (0: `all`, the first write after the draw), as `added`, `more` and
-- `previous` say (below), and the draw of `id` (`drawn`), then refuses the call for `key` as callOfType does.
local function takeBack(upTo, reply, key, expected, base, id, drawn, added, more, previous)
  local at, bit = 3 + 2 * tonumber(ARGV[1]), 2
  for n = 1, upTo - 1 do
    local command, indexKey, _, member, nextAt = entryAt(at, base, id)
    if (n <= BITS and added % (2 * bit) >= bit) or (more and more[n]) then
      redis.call(command == 'SADD' and 'SREM' or 'ZREM', indexKey, member)
    elseif previous and previous[indexKey] then
      redis.call('ZADD', indexKey, previous[indexKey], member)
    end
    at, bit = nextAt, 2 * bit
  end
  if upTo > 0 then
    if added % 2 == 1 then
      redis.call('ZREM', KEYS[2], id)
    elseif previous and previous[KEYS[2]] then
      redis.call('ZADD', KEYS[2], previous[KEYS[2]], id)
    end
  end
  redis.call(drawn == 1 and 'DEL' or 'DECR', KEYS[1])
  refuseReply(reply, key, expected)
end

-- A member already there (a stale entry under a sequence set back) takes the new score, and `previous` (key ->
-- score, made here if nil) keeps the one it had for a take-back; returns `previous`. `key` is a zset: its
-- ZADD ... NX was not refused.
local function rescore(previous, key, score, member)
  previous = previous or {}
  previous[key] = redis.call('ZSCORE', key, member)
  redis.call('ZADD', key, score, member)
  return previous
end

local base = KEYS[3]
local fieldCount = tonumber(ARGV[1])
local entriesAt = 2 + 2 * fieldCount

local drawn = drawSequence(KEYS[1])
local id = sequenceText(drawn, KEYS[1])
local key = base .. ':obj:' .. id
-- A key of another type under the new id (another program's) is refused and left as it is; the id stays drawn,
-- so the next create takes the next one. A hash there (another program's, or under a sequence set back) is
-- replaced below, not merged into.
local found = redis.call('TYPE', key).ok
refuseOtherType(key, 'hash', found)

-- What the writes made, kept without a table (a table per call costs Redis time on every create): bit 1 set,
-- `all` got the id as a new member; bit 2^n, entry n got its member, up to entry BITS (a Lua number holds 53
-- bits exactly); past it, `more` (n -> true). `previous` (key -> score) is made only for a member that was there
-- already (a stale entry under a sequence set back), whose score the write changed.
local added, more, previous = 0, nil, nil

-- Each write is refused whole by Redis on a key of another type, and then taken back with the writes before it.
-- Their replies are 1 (added), 0 (there already) or a refusal.
local reply = redis.pcall('ZADD', KEYS[2], 'NX', id, id)
if reply == 1 then
  added = 1
elseif reply == 0 then
  previous = rescore(previous, KEYS[2], id, id)
else
  takeBack(0, reply, KEYS[2], 'zset', base, id, drawn, added, more, previous)
end
local at, bit = entriesAt + 1, 2
-- (entryAt's work, written out: a call per entry costs Redis time on every create)
for n = 1, tonumber(ARGV[entriesAt]) do
  local kind, indexKey = ARGV[at], base .. ARGV[at + 1]
  if kind == 'S' then
    reply = redis.pcall('SADD', indexKey, id)
    at = at + 2
  else
    local score, member = 0, id
    if kind == 'Z' then
      score = ARGV[at + 2]
    else
      member = ARGV[at + 2] .. string.char(#id) .. id
    end
    reply = redis.pcall('ZADD', indexKey, 'NX', score, member)
    if reply == 0 then
      previous = rescore(previous, indexKey, score, member)
    end
    at = at + 3
  end
  if reply == 1 then
    if n <= BITS then
      added = added + bit
    else
      more = more or {}
      more[n] = true
    end
  elseif reply ~= 0 then
    takeBack(n, reply, indexKey, kind == 'S' and 'set' or 'zset', base, id, drawn, added, more, previous)
  end
  bit = 2 * bit
end

if found == 'hash' then
  redis.call('DEL', key)
end
callWithArgs('HSET', key, 2, 1 + 2 * fieldCount, { '#id', id })
return id
