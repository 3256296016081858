-- lists.lua: the member keys of many-to-many relations. A side is a set of ids, or, for an ordered relation, a
-- sorted set whose scores are the members' positions, spread LIST_GAP apart so that an insertion between two
-- members takes the midpoint of their scores; when doubles can no longer split a gap, the list is renumbered
-- (docs/design/collections.md). Needs key-types.lua before it. KEYS/ARGV: none of its own.

local LIST_GAP = 65536

-- The key type of a side: `ordered` is true for a list.
local function sideType(ordered)
  return ordered and 'zset' or 'set'
end

-- A score as Redis reads it back exactly (Lua's own tostring keeps 14 digits only).
local function scoreText(score)
  return string.format('%.17g', score)
end

-- Every member of a side: a list in order, a set as SMEMBERS gives it.
local function sideMembers(key, ordered)
  if ordered then
    return redis.call('ZRANGE', key, 0, -1)
  end
  return redis.call('SMEMBERS', key)
end

local function hasMember(key, ordered, id)
  if ordered then
    return redis.call('ZSCORE', key, id) ~= false
  end
  return redis.call('SISMEMBER', key, id) == 1
end

-- Adds `id` to a side: at the end of a list (where it is already, it stays), or to a set.
local function addMember(key, ordered, id)
  if not ordered then
    redis.call('SADD', key, id)
    return
  end
  if redis.call('ZSCORE', key, id) then
    return
  end
  local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  redis.call('ZADD', key, last[2] and scoreText(tonumber(last[2]) + LIST_GAP) or '0', id)
end

local function removeMember(key, ordered, id)
  redis.call(ordered and 'ZREM' or 'SREM', key, id)
end

-- Gives a list's members the positions 0, LIST_GAP, 2 * LIST_GAP ... in their order.
local function renumber(key)
  local members = redis.call('ZRANGE', key, 0, -1)
  for start = 1, #members, 1000 do
    local args = {}
    for m = start, math.min(start + 999, #members) do
      args[#args + 1] = scoreText((m - 1) * LIST_GAP)
      args[#args + 1] = members[m]
    end
    redis.call('ZADD', key, unpack(args))
  end
end

-- The scores of `count` new members placed before the member at position `index` (0-based; the list's length
-- or more: at the end), strictly between their neighbours' scores; nil when doubles cannot split the gap.
local function scoresAt(key, index, count)
  local length = redis.call('ZCARD', key)
  if index > length then
    index = length
  end
  local before = index > 0 and tonumber(redis.call('ZRANGE', key, index - 1, index - 1, 'WITHSCORES')[2]) or nil
  local after = index < length and tonumber(redis.call('ZRANGE', key, index, index, 'WITHSCORES')[2]) or nil
  local scores = {}
  for i = 1, count do
    if before and after then
      scores[i] = before + (after - before) * i / (count + 1)
    elseif before then
      scores[i] = before + i * LIST_GAP
    elseif after then
      scores[i] = after - (count + 1 - i) * LIST_GAP
    else
      scores[i] = (i - 1) * LIST_GAP
    end
    local previous = scores[i - 1] or before
    if (previous and scores[i] <= previous) or (after and scores[i] >= after) then
      return nil
    end
  end
  return scores
end

-- Puts `ids` (members of no position yet, each once) into the list at position `index`, in their order.
local function insertMembers(key, index, ids)
  if #ids == 0 then
    return
  end
  local scores = scoresAt(key, index, #ids)
  if not scores then
    renumber(key)
    scores = scoresAt(key, index, #ids) or error('lists.lua: no positions left between two members')
  end
  for start = 1, #ids, 1000 do
    local args = {}
    for i = start, math.min(start + 999, #ids) do
      args[#args + 1] = scoreText(scores[i])
      args[#args + 1] = ids[i]
    end
    redis.call('ZADD', key, unpack(args))
  end
end
