-- key-types.lua: refusing a key of the layout that holds another Redis type than the one redis-record keeps
-- there (written by hand or by another program); a library inlined into the scripts that read and write the
-- model's keys.
-- KEYS/ARGV: none of its own.
-- Guarantees: the refusal is the error reply 'RRTYPE <expected> <found> <key in hex>', which the client turns into
-- a WrongTypeError (src/errors/wrong-type.ts); the key goes in hex because Redis cuts an error reply at a NUL
-- byte and turns CR and LF into spaces, and an index key holds the indexed value; the scripts check every key they write before their first write,
-- so a refused call has written nothing. A missing key is of every type: it is created when written.

-- `key` in hex, as the refusals name keys (an error reply cannot carry a NUL, CR or LF byte of an index value).
local function hexOf(key)
  return (string.gsub(key, '.', function(byte)
    return string.format('%02x', string.byte(byte))
  end))
end

-- Refuses `key` unless `found`, its type as TYPE names it, is 'none' (missing) or `expected`.
local function refuseOtherType(key, expected, found)
  if found ~= 'none' and found ~= expected then
    error({ err = 'RRTYPE ' .. expected .. ' ' .. found .. ' ' .. hexOf(key) })
  end
end

-- Refuses `key` unless it is missing or holds `expected` (as TYPE names it). `seen` (optional, key -> true)
-- skips keys already checked in the same call.
local function expectType(key, expected, seen)
  if seen then
    if seen[key] then
      return
    end
    seen[key] = true
  end
  refuseOtherType(key, expected, redis.call('TYPE', key).ok)
end

-- Raises `reply`, a command's refusal (an error reply from redis.pcall): when Redis refused it as WRONGTYPE, as
-- the refusal of `key` expectType makes (naming the type the key holds); any other error as it is.
local function refuseReply(reply, key, expected)
  if string.sub(reply.err, 1, 9) == 'WRONGTYPE' then
    expectType(key, expected)
  end
  error(reply)
end

-- Runs `command` on `key` and returns its reply: a command Redis refuses whole when the key holds another type
-- (a read, or a write that changes nothing when refused), refused as refuseReply says. Before a script's first
-- write, this checks the key's type at no extra cost: no TYPE is asked unless Redis refused the command. A
-- script that must write all or nothing and has not checked its keys' types can make its writes this way in an
-- order where what came before a refusal can be put back exactly (create-plain.lua, indexed-removal.lua).
local function callOfType(expected, command, key, ...)
  local reply = redis.pcall(command, key, ...)
  if type(reply) == 'table' and reply.err then
    refuseReply(reply, key, expected)
  end
  return reply
end

-- The Redis type of an index or unique entry's key, by its kind ('S', 'Z' or 'U', as indexes.lua's entryOf
-- and the memo name them).
local function entryKeyType(kind)
  if kind == 'S' then
    return 'set'
  elseif kind == 'Z' then
    return 'zset'
  end
  return 'hash'
end

-- A drop(kind, key, member, id) for objects.lua's objectEntries that refuses an entry key of another type
-- instead of removing the entry: run before the real drop, it makes a removal all or nothing.
local function expectEntry(kind, key)
  expectType(key, entryKeyType(kind))
end

-- A drop(command, key, member) for indexed-removal.lua's indexedEntries and gathered-removal.lua that refuses an
-- entry key of another type (SREM: a set, ZREM: a sorted set, HDEL: a hash) instead of removing the entry.
local function expectCommandKey(command, key, _, seen)
  expectType(key, command == 'SREM' and 'set' or command == 'ZREM' and 'zset' or 'hash', seen)
end
