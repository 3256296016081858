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
-- (the id stays drawn, so the next create takes the next one). A key of another type at the sequence, `all` or
-- an index key refuses the call with nothing written (the refusal of key-types.lua, 'RRTYPE ...'): `all` and
-- the index entries are added each with a command Redis refuses whole on a key of another type, and a refusal
-- takes back what came before it (the draw, each member the call added, the score a member already there had)
-- before the call is refused; the hash is written last. So the only TYPE asked is the new key's, in place of a
-- DEL. A draw of 1 is taken back by deleting the sequence (a sequence of 0 and none draw the same ids); a draw
-- past 2^53 - 1 is taken back and refused (sequence-ids.lua's refusal, 'RRSEQ ...'), and a sequence holding
-- no integer refuses the call as sequence-ids.lua refuses it ('RRNOINT ...'), nothing written.
-- This is the create every application makes most, so it uses no library function but indexes.lua's
-- callWithArgs and key-types.lua's hexOf and refuseOtherType (one a script defines is made anew on every call,
-- about 0.2 us each), and refuses at its one place.
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua

local base = KEYS[3]
local fieldCount = tonumber(ARGV[1])
local entriesAt = 2 + 2 * fieldCount

-- a refusal: { the error reply, the key, the type it should hold } (nil: none so far)
local refused = nil
local drawn = redis.pcall('INCR', KEYS[1])
local id, key, found
if type(drawn) == 'table' then
  refused = { drawn, KEYS[1], 'string' }
elseif drawn > 9007199254740991 then
  redis.call('DECR', KEYS[1])
  error({ err = 'RRSEQ ' .. hexOf(KEYS[1]) })
else
  id = string.format('%d', drawn)
  key = base .. ':obj:' .. id
  -- a key of another type under the new id (another program's) is refused and left as it is, the id staying
  -- drawn; a hash there is replaced below, not merged into
  found = redis.call('TYPE', key).ok
  if found ~= 'none' and found ~= 'hash' then
    refused = { { err = 'WRONGTYPE' }, key, 'hash' }
  end
end

-- What the writes made, kept without a table (a table per call costs Redis time too): bit 1 set, `all` got
-- the id as a new member; bit 2^n, entry n got its member, up to entry 50 (a Lua number holds 53 bits
-- exactly); past it, `more` (n -> true). `previous` (key -> score) is made only for a member that was there
-- already (a stale entry under a sequence set back), whose score the write changed. `upTo`: the write that
-- was refused (0: `all`).
local added, more, previous, upTo = 0, nil, nil, -1
-- Each write's reply is 1 (added), 0 (there already) or a refusal.
if not refused then
  local reply = redis.pcall('ZADD', KEYS[2], 'NX', id, id)
  if reply == 1 then
    added = 1
  elseif reply == 0 then
    previous = { [KEYS[2]] = redis.call('ZSCORE', KEYS[2], id) }
    redis.call('ZADD', KEYS[2], id, id)
  else
    refused, upTo = { reply, KEYS[2], 'zset' }, 0
  end
end
local at, bit = entriesAt + 1, 2
for n = 1, refused and 0 or tonumber(ARGV[entriesAt]) do
  local kind, indexKey = ARGV[at], base .. ARGV[at + 1]
  local reply
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
      previous = previous or {}
      previous[indexKey] = redis.call('ZSCORE', indexKey, member)
      redis.call('ZADD', indexKey, score, member)
    end
    at = at + 3
  end
  if reply == 1 then
    if n <= 50 then
      added = added + bit
    else
      more = more or {}
      more[n] = true
    end
  elseif reply ~= 0 then
    refused, upTo = { reply, indexKey, kind == 'S' and 'set' or 'zset' }, n
    break
  end
  bit = 2 * bit
end

if refused then
  if upTo >= 0 then
    -- take back the writes before the refused one, and the draw
    at, bit = entriesAt + 1, 2
    for n = 1, upTo - 1 do
      local kind, indexKey = ARGV[at], base .. ARGV[at + 1]
      local member = id
      if kind == 'L' then
        member = ARGV[at + 2] .. string.char(#id) .. id
      end
      if (n <= 50 and added % (2 * bit) >= bit) or (more and more[n]) then
        redis.call(kind == 'S' and 'SREM' or 'ZREM', indexKey, member)
      elseif previous and previous[indexKey] then
        redis.call('ZADD', indexKey, previous[indexKey], member)
      end
      at, bit = at + (kind == 'S' and 2 or 3), 2 * bit
    end
    if upTo > 0 then
      if added % 2 == 1 then
        redis.call('ZREM', KEYS[2], id)
      elseif previous and previous[KEYS[2]] then
        redis.call('ZADD', KEYS[2], previous[KEYS[2]], id)
      end
    end
    redis.call(drawn == 1 and 'DEL' or 'DECR', KEYS[1])
  end
  local reply, refusedKey, expected = refused[1], refused[2], refused[3]
  if string.sub(reply.err, 1, 9) == 'WRONGTYPE' then
    refuseOtherType(refusedKey, expected, redis.call('TYPE', refusedKey).ok)
  elseif refusedKey == KEYS[1] and string.sub(reply.err, 1, 27) == 'ERR value is not an integer' then
    -- the sequence holds no integer: refused as sequence-ids.lua refuses it
    error({ err = 'RRNOINT ' .. hexOf(KEYS[1]) })
  end
  error(reply)
end

if found == 'hash' then
  redis.call('DEL', key)
end
callWithArgs('HSET', key, 2, 1 + 2 * fieldCount, '#id', id)
return id
