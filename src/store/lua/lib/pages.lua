-- pages.lua: reading one page of an ordered set; a library inlined into query.lua.
-- KEYS/ARGV: none of its own.
-- Orders: by score then id ascending, or the exact reverse (desc). Redis orders equal scores by member bytes,
-- which is id order for uuids but not for sequence ids ('10' < '9'); with `numeric` set, ties are put in
-- (length, bytes) order, which is numeric order, reading whole the tie groups at the page's two ends when the
-- page may cut them.
-- Byte order already holds among ids of one length, so the part of a group a page takes is found by counting
-- the group's ids of each length (numericRange), with no comparison sort, and only that part is built.
-- `limit` < 0 means no limit.

local function reversed(list)
  local out = {}
  for i = #list, 1, -1 do
    out[#out + 1] = list[i]
  end
  return out
end

-- Ids `from` .. `to` (1-based, inclusive) of a tie group's numeric order (or its reverse with `desc`), the group
-- given in byte order. Numeric order is (length, bytes): one pass counts the ids of each length, which tells
-- the lengths the range falls in and the ranks it takes of each; a second pass, backwards for `desc`, places
-- those ids, stopping once the range is filled. Nothing is built for the rest of the group, which is most of
-- it when a short page meets a big tie group (a top 20 among 500 ties).
local function numericRange(members, desc, from, to)
  local counts, lengths = {}, {}
  for i = 1, #members do
    local length = #members[i]
    local count = counts[length]
    if count then
      counts[length] = count + 1
    else
      counts[length] = 1
      lengths[#lengths + 1] = length
    end
  end
  if desc then
    table.sort(lengths, function(a, b) return a > b end)
  else
    table.sort(lengths)
  end
  -- for each length the range takes ids of: the first rank it takes, the last, and where the first goes
  local firstRank, lastRank, slot = {}, {}, {}
  local before = 0 -- ids of the lengths before this one, in the order
  for _, length in ipairs(lengths) do
    local count = counts[length]
    local low, high = math.max(1, from - before), math.min(count, to - before)
    if low <= high then
      firstRank[length], lastRank[length], slot[length] = low, high, before + low - from + 1
    end
    before = before + count
    if before >= to then
      break
    end
  end
  local out, left, seen = {}, to - from + 1, {}
  local first, last, step = 1, #members, 1
  if desc then
    first, last, step = #members, 1, -1
  end
  for i = first, last, step do
    local id = members[i]
    local length = #id
    local low = firstRank[length]
    if low then
      local rank = (seen[length] or 0) + 1
      seen[length] = rank
      if rank >= low and rank <= lastRank[length] then
        out[slot[length] + rank - low] = id
        left = left - 1
        if left == 0 then
          break
        end
      end
    end
  end
  return out
end

-- The id carried at the end of a lex index member (esc(value) \0\0 len(id) id).
local function lexId(member)
  return string.match(member, '%z%z.([^%z]*)$')
end

-- Whether two scores as Redis writes them are one score: '-0' and '0' are ('inf' is compared as text).
local function sameScore(a, b)
  if a == b then
    return true
  end
  local x, y = tonumber(a), tonumber(b)
  return x ~= nil and x == y
end

local function pageByScore(key, min, max, desc, offset, limit, numeric)
  if limit == 0 then
    return {}
  end
  local rows
  if desc then
    rows = redis.call('ZRANGE', key, max, min, 'BYSCORE', 'REV', 'LIMIT', offset, limit, 'WITHSCORES')
  else
    rows = redis.call('ZRANGE', key, min, max, 'BYSCORE', 'LIMIT', offset, limit, 'WITHSCORES')
  end
  local ids = {}
  if not numeric then
    for i = 1, #rows, 2 do
      ids[#ids + 1] = rows[i]
    end
    return ids
  end
  if #rows == 0 then
    return ids
  end
  -- Group the page by score. Scores are compared as numbers: Redis writes a score -0 as '-0' (in a skiplist),
  -- and orders it as one tie group with 0.
  local groups = {}
  for i = 1, #rows, 2 do
    local last = groups[#groups]
    if not last or not sameScore(last.score, rows[i + 1]) then
      last = { score = rows[i + 1], members = {} }
      groups[#groups + 1] = last
    end
    last.members[#last.members + 1] = rows[i]
  end
  local before
  if desc then
    before = redis.call('ZCOUNT', key, '(' .. groups[1].score, max)
  else
    before = redis.call('ZCOUNT', key, min, '(' .. groups[1].score)
  end
  -- The first group may begin before the page, and the last go on after it (unless the page reached the end
  -- of the range): such a group is read whole, in byte order. The others are the page's rows, in byte order
  -- or (desc) its reverse.
  local short = limit < 0 or #rows / 2 < limit
  local first, final = groups[1], groups[#groups]
  if before < offset or (#groups == 1 and not short) then
    first.members, first.whole = redis.call('ZRANGE', key, first.score, first.score, 'BYSCORE'), true
  end
  if #groups > 1 and not short then
    final.members, final.whole = redis.call('ZRANGE', key, final.score, final.score, 'BYSCORE'), true
  end
  -- the page: the ids after the first `offset - before` of the first group, `limit` of them (all with -1)
  local skip, left = offset - before, limit < 0 and math.huge or limit
  for g, group in ipairs(groups) do
    local members = group.members
    local from = g == 1 and skip + 1 or 1
    local to = math.min(#members, from + left - 1)
    if #members == 1 then
      -- one id: nothing to order (most groups when values are distinct, as timestamps are)
      if from == 1 and to == 1 then
        ids[#ids + 1] = members[1]
      end
    elseif from <= to then
      if desc and not group.whole then
        members = reversed(members)
      end
      for _, id in ipairs(numericRange(members, desc, from, to)) do
        ids[#ids + 1] = id
      end
    end
    if from <= to then
      left = left - (to - from + 1)
    end
    if left == 0 then
      break
    end
  end
  return ids
end

local function pageByLex(key, min, max, desc, offset, limit)
  if limit == 0 then
    return {}
  end
  local members
  if desc then
    members = redis.call('ZRANGE', key, max, min, 'BYLEX', 'REV', 'LIMIT', offset, limit)
  else
    members = redis.call('ZRANGE', key, min, max, 'BYLEX', 'LIMIT', offset, limit)
  end
  for i, member in ipairs(members) do
    members[i] = lexId(member)
  end
  return members
end

-- A set of ids scored by id order (sequence ids by value, uuids all 0), from position `offset`, or after `afterId`.
local function pageById(key, offset, limit, afterId, numeric)
  if limit == 0 then
    return {}
  end
  if afterId == '' then
    return redis.call('ZRANGE', key, offset, limit < 0 and -1 or offset + limit - 1)
  end
  if numeric then
    return redis.call('ZRANGE', key, '(' .. afterId, '+inf', 'BYSCORE', 'LIMIT', offset, limit)
  end
  return redis.call('ZRANGE', key, '(' .. afterId, '+', 'BYLEX', 'LIMIT', offset, limit)
end

-- One page, in numeric order, of sequence ids given in any order (the members of one index window): what
-- pageById would read from their intersection with `all`, without building it. Sequence ids are canonical
-- decimal integers (INCR), so each number stands for one id and the sort compares numbers, not strings.
local function pageOfSequenceIds(members, offset, limit, afterId)
  if limit == 0 then
    return {}
  end
  local numbers, byNumber = {}, {}
  for i, id in ipairs(members) do
    local n = tonumber(id)
    numbers[i] = n
    byNumber[n] = id
  end
  table.sort(numbers)
  local first = 1
  if afterId ~= '' then
    -- binary search for the first number above afterId
    local after, low, high = tonumber(afterId), 1, #numbers + 1
    while low < high do
      local middle = math.floor((low + high) / 2)
      if numbers[middle] > after then
        high = middle
      else
        low = middle + 1
      end
    end
    first = low
  end
  first = first + offset
  local last = limit < 0 and #numbers or math.min(#numbers, first + limit - 1)
  local ids = {}
  for i = first, last do
    ids[#ids + 1] = byNumber[numbers[i]]
  end
  return ids
end

-- Whether id `a` comes before id `b` in a tie group: by bytes, or with `numeric` (sequence ids) by length first,
-- which is numeric order. Compared byte by byte: Lua's `<` on strings follows the server's locale.
local function tieBefore(a, b, numeric)
  if numeric and #a ~= #b then
    return #a < #b
  end
  for i = 1, math.min(#a, #b) do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then
      return x < y
    end
  end
  return #a < #b
end

-- How many members of `key` scored `score` come at or before `afterId` in the order (at or after it in tie order
-- with `desc`): what a keyset page after (score, afterId) skips of that tie group. Reads the group: O(ties).
local function tiesThrough(key, score, afterId, desc, numeric)
  local n = 0
  for _, id in ipairs(redis.call('ZRANGE', key, score, score, 'BYSCORE')) do
    if id == afterId or (desc and tieBefore(afterId, id, numeric)) or (not desc and tieBefore(id, afterId, numeric)) then
      n = n + 1
    end
  end
  return n
end
