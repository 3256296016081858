-- pages.lua: reading one page of an ordered set; a library inlined into query.lua.
-- KEYS/ARGV: none of its own.
-- Orders: by score then id ascending, or the exact reverse (desc). Redis orders equal scores by member bytes,
-- which is id order for uuids but not for sequence ids ('10' < '9'); with `numeric` set, ties are put in
-- (length, bytes) order, which is numeric order, reading whole only the tie groups at the page's two ends.
-- Byte order already holds among ids of one length, so a group is ordered by one pass that buckets it by
-- length, with no comparison sort.
-- `limit` < 0 means no limit.

local function reversed(list)
  local out = {}
  for i = #list, 1, -1 do
    out[#out + 1] = list[i]
  end
  return out
end

-- A tie group in byte order -> the same ids in numeric order (or its reverse).
local function numericOrder(members, desc)
  local byLength, lengths = {}, {}
  for _, id in ipairs(members) do
    local bucket = byLength[#id]
    if not bucket then
      bucket = {}
      byLength[#id] = bucket
      lengths[#lengths + 1] = #id
    end
    bucket[#bucket + 1] = id
  end
  table.sort(lengths)
  local ordered = {}
  for _, length in ipairs(lengths) do
    for _, id in ipairs(byLength[length]) do
      ordered[#ordered + 1] = id
    end
  end
  return desc and reversed(ordered) or ordered
end

-- The id carried at the end of a lex index member (esc(value) \0\0 len(id) id).
local function lexId(member)
  return string.match(member, '%z%z.([^%z]*)$')
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
  -- Group the page by score; the first and last groups may reach past the page, so read them whole.
  local groups = {}
  for i = 1, #rows, 2 do
    local last = groups[#groups]
    if not last or last.score ~= rows[i + 1] then
      last = { score = rows[i + 1], members = {} }
      groups[#groups + 1] = last
    end
    last.members[#last.members + 1] = rows[i]
  end
  groups[1].members = redis.call('ZRANGE', key, groups[1].score, groups[1].score, 'BYSCORE')
  if #groups > 1 then
    groups[#groups].members = redis.call('ZRANGE', key, groups[#groups].score, groups[#groups].score, 'BYSCORE')
  end
  local before
  if desc then
    before = redis.call('ZCOUNT', key, '(' .. groups[1].score, max)
  else
    before = redis.call('ZCOUNT', key, min, '(' .. groups[1].score)
  end
  local ordered = {}
  for _, group in ipairs(groups) do
    -- end groups were read whole in byte order; middle ones come from the page, reversed when desc
    local members = group.members
    if desc and group ~= groups[1] and group ~= groups[#groups] then
      members = reversed(members)
    end
    for _, member in ipairs(numericOrder(members, desc)) do
      ordered[#ordered + 1] = member
    end
  end
  local first = offset - before + 1
  local last = limit < 0 and #ordered or math.min(#ordered, first + limit - 1)
  for i = first, last do
    ids[#ids + 1] = ordered[i]
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
