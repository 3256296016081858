-- repair-object.lua: bring one object back in line with the invariants, from its stored values.
-- KEYS[1]  the model's `all` zset;  KEYS[2] the model's key base (hash, memo, `exp`, index keys derive from it);
-- KEYS[3]  the model's sequence (a shard's, for a sharded model): raised when a hash is listed again
-- ARGV[1]  the id;  ARGV[2] the id form, as save.lua's: '0' given ids (uuids: a re-listed hash is scored 0),
--          '1' sequence ids (scored by their number), 'n:s' the sequence of shard s of a model sharded n ways
--          (its k-th id is (k - 1) * n + s + 1); ARGV[3] '1' when the
--          model keeps memos (ttl or cap; in any model an object with a memo or a time to live keeps one);
-- ARGV[4]  'full' (rewrite the memo from the given specs: every index) | 'add' (only add entries, also to the memo)
-- ARGV[5]  n case folds, then n triples (attribute, its value as the caller read it, the lower-cased value;
--          '' = absent): `#ci:<attr>` is set only if the attribute still holds that value (Lua cannot lower-case
--          Unicode the way JavaScript does)
-- then     k index specs (indexes.lua): the indexes whose entries to (re)write
-- Returns: 'rebuilt' | 'relisted' (a hash whose #id is its id, put back in `all`, then rebuilt; with sequence
--          ids, the sequence raised to at least that id's draw in the same step, so that no create takes the id
--          again) | '#id restored' (a listed hash whose #id is not its id, or that has none: #id set to the id,
--          then rebuilt) | 'rescored' (in a sequence model, an id listed under another score than its own: an
--          id of digits is scored by its number, any other id 0; rebuilt) | 'hash deleted' (a hash not listed
--          whose #id is not its id) | 'unlisted' (an id in `all` without hash
--          or expiry, or that is no valid id (ids.lua: `a:b`), removed; the key `<base>:obj:a:b` is no object and
--          is left as it is) | 'memo deleted' | 'expired' (an expired object: left to the sweep); and outcomes
--          that leave a violation:
--          'conflict' (a unique value held and owned by another live object: left to it) | 'unindexable' (a
--          score-indexed value that is not a stored number: its entry, if any, left as it is) | 'unlistable' (a
--          hash naming itself whose id is not a sequence number (1 to 2^53 - 1), in a sequence model, or is one
--          another shard's sequence draws, in a sharded model: nothing written) |
--          'not a hash' (the object's key holds another type: nothing written)
-- Guarantees: one atomic step (invariants 1 to 5 for this object, and its `exp` entry: present, at the time the
-- hash expires, exactly when the hash has a TTL; an object with a TTL keeps a memo); safe while the
-- application writes, since every decision is taken on what is stored at that instant. Every check that can
-- refuse the whole object comes before the first write (a sequence of another type is refused by GET before
-- the hash is listed, an `exp` of another type by TYPE); a memo key of another type is no memo (the library
-- owns `memo:` keys) and is deleted. No entry is ever written for an id that is not a valid id. A memo deleted
-- with its object drops only the entries that can be the object's own (a key of the model's under KEYS[2], the
-- object's member: objects.lua's memoEntries); what else it records is left as it is.
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include objects.lua
--!include numbers.lua
--!include ids.lua
--!include sequence-ids.lua

local all, base, sequence, id = KEYS[1], KEYS[2], KEYS[3], ARGV[1]
local sequenceIds = ARGV[2] ~= '0'
local stride, shard = string.match(ARGV[2], '^(%d+):(%d+)$')
local key = base .. ':obj:' .. id
local memo = base .. ':memo:' .. id
local expiring = base .. ':exp'
local folds = tonumber(ARGV[5])
local specs, fields = readSpecs(7 + 3 * folds, tonumber(ARGV[6 + 3 * folds]))
local listed = redis.call('ZSCORE', all, id)

-- Drops the entries a memo records that can be this object's (objects.lua's memoEntries; a unique value only
-- if it still names this id), then the memo: what else it records is left as it is.
local function forgetMemo()
  if isHash(memo) then
    memoEntries(base, id, dropEntry)
  end
  redis.call('DEL', memo)
end

if not isValidId(id) then
  -- no object has this id: its key (`obj:a:b`) is not one, and is left as it is
  forgetMemo()
  redis.call('ZREM', all, id)
  redis.call('ZREM', expiring, id)
  return listed and 'unlisted' or 'memo deleted'
end
if redis.call('EXISTS', key) == 0 then
  if listed and redis.call('ZSCORE', expiring, id) then
    return 'expired'
  end
  forgetMemo()
  redis.call('ZREM', all, id)
  redis.call('ZREM', expiring, id)
  return listed and 'unlisted' or 'memo deleted'
end
if not isHash(key) then
  return 'not a hash'
end
-- the object's `exp` entry follows its hash's TTL, as expire() and persist() keep them (written below, once the
-- object is listed): `exp` is checked before the first write
expectType(expiring, 'zset')
local left = redis.call('PTTL', key)
local ownId = redis.call('HGET', key, '#id')

local outcome = 'rebuilt'
if not listed then
  if ownId ~= id then
    forgetMemo()
    redis.call('DEL', key)
    return 'hash deleted'
  end
  if sequenceIds then
    -- a sequence model's `all` scores each id by its number; a shard lists the ids its own sequence draws
    if not isSequenceId(id) then
      return 'unlistable'
    end
    local drawn = tonumber(id)
    if stride then
      local offset = (drawn - 1) % tonumber(stride)
      if offset ~= tonumber(shard) then
        return 'unlistable'
      end
      drawn = (drawn - 1 - offset) / tonumber(stride) + 1
    end
    -- invariant 5: no later create draws this id again
    raiseSequence(sequence, drawn)
  end
  redis.call('ZADD', all, sequenceIds and id or 0, id)
  outcome = 'relisted'
else
  -- a sequence model scores an id of digits by its number, any other id (a uuid from before) 0; a model with
  -- uuids keeps the scores of the sequence ids it listed before (either is right there)
  local score = string.find(id, '^%d+$') and id or '0'
  if sequenceIds and tonumber(listed) ~= tonumber(score) then
    redis.call('ZADD', all, score, id)
    outcome = 'rescored'
  end
  -- `all` lists the id, so the hash is that object's: its #id field was changed or deleted by another program
  if ownId ~= id then
    redis.call('HSET', key, '#id', id)
    outcome = '#id restored'
  end
end
-- a hash with a TTL is entered at the time it expires, so that the sweep then removes its entries (from its
-- memo); one without has no entry
if left >= 0 then
  redis.call('ZADD', expiring, string.format('%d', nowMs() + left), id)
else
  redis.call('ZREM', expiring, id)
end
local memoType = redis.call('TYPE', memo).ok
if memoType ~= 'none' and memoType ~= 'hash' then
  redis.call('DEL', memo)
end

for f = 0, folds - 1 do
  local attr, seen, folded = ARGV[6 + 3 * f], ARGV[7 + 3 * f], ARGV[8 + 3 * f]
  if (redis.call('HGET', key, attr) or '') == seen then
    if folded == '' then
      redis.call('HDEL', key, '#ci:' .. attr)
    else
      redis.call('HSET', key, '#ci:' .. attr, folded)
    end
  end
end

local keepMemo = ARGV[3] == '1' or memoOf(base, id) ~= nil or left >= 0
if keepMemo and ARGV[4] == 'full' then
  redis.call('DEL', memo)
end
local values = readValues(key, fields)
for _, spec in ipairs(specs) do
  local kind, indexKey, member = entryOf(base, spec, values, id)
  if kind == 'U' then
    local owner = redis.call('HGET', indexKey, member)
    local ownerKey = owner and base .. ':obj:' .. owner
    if owner and owner ~= id and redis.call('ZSCORE', all, owner) and isHash(ownerKey) then
      local _, ownerIndexKey, ownerMember = entryOf(base, spec, readValues(ownerKey, fields), owner)
      if ownerIndexKey == indexKey and ownerMember == member then
        kind = nil
        outcome = 'conflict'
      end
    end
  elseif kind and spec.kind == 'Z' and values[spec.attr] and not isScoreText(values[spec.attr]) then
    -- no score ZADD could take: the entry stays as it is (and in the memo, if it is in the index)
    kind = nil
    outcome = 'unindexable'
    if keepMemo and redis.call('ZSCORE', indexKey, member) then
      redis.call('HSET', memo, 'Z' .. indexKey, member)
    end
  end
  -- a tag index has no single entry (entryOf): addEntry adds one per element
  if kind or spec.kind == 'T' then
    addEntry(base, spec, values, id, keepMemo and memo or nil)
  end
end
return outcome
