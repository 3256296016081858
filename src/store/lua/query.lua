-- query.lua: one query, answered inside Redis: set algebra over the indexes, order, offset and limit (or a
-- keyset: after a given object), and (mode 'load') the attributes of the page, in one call.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the model's key base `<prefix>:{<Model>}`; index keys and the temporary keys <base>:tmp:<n> derive
--          from it (same hash tag, same Cluster slot)
-- ARGV[1]  mode: 'ids' | 'load' | 'count'
-- ARGV[2]  '1' when ids are sequence numbers (ties then ordered numerically), else '0'
-- ARGV[3]  offset;  ARGV[4] limit (-1: no limit);  ARGV[5] afterId ('' none): in id order the page starts
--          after it; in score order, with ARGV[13], the id of the keyset's object
-- ARGV[6]  order: 'id' | 'score' | 'lex' | 'compound';  ARGV[7] the order's index key;  ARGV[8] the order's
--          attribute field (compound: the parts' fields joined by '+')
-- ARGV[9]  '1' descending, else '0'; compound: a direction ('a' | 'd') per part after those the where pins with
--          an equality, ':', a numeric flag per part ('1' numbers and Dates, '0' strings), e.g. 'da:110'
--          (compound-pages.lua)
-- ARGV[10] '1' when the page is read directly from a window of the order key, then ARGV[11] min, ARGV[12] max
-- ARGV[13] the keyset ('' none): the page starts after this object in the order, whose score it is (score
--          order, with its id in ARGV[5]) or whose lex member (lex order; compound order, in one direction:
--          its compound member); it replaces the window's leading
--          bound (the client sends none when the object lies before the window)
-- ARGV[14] n, the number of hash fields a load reads, then ARGV[15..14+n] those fields, `#id` first (HMGET);
--          n = 0: every field (HGETALL)
-- ARGV[15+n..] the program (unless a window): instructions building the matching ids (query-program.lua);
--          an empty program means every object
-- Returns: 'count' the number of matches; 'ids' the page's ids; 'load' with n > 0: n values per object, flat:
--          the id, then the HMGET values of fields 2..n (nil for an absent one); with n = 0: id, HGETALL list,
--          id, HGETALL list ...; an object whose hash vanished (no `#id`) is left out. A whole page (offset 0, no
--          limit, no afterId) read from one window in id order comes in the window's order: the client sorts it
-- Guarantees: reads one consistent state (the script is atomic); objects whose time has come are swept first
-- and the matches are intersected with `all` (or, for a program of one range in id order with sequence ids,
-- read from that one window, whose entries are live objects' own), so only live objects are returned;
-- temporary keys expire after 10 s even if the script fails, and are unlinked at the end. An index key of
-- another type is refused (key-types.lua) before anything is written; a listed id whose key is not a hash is
-- no object and is left out of a load. A keyset page holds exactly the matches after the keyset's object at
-- this instant, whatever was written since the page before.
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include objects.lua
--!include pages.lua
--!include compound-pages.lua
--!include query-program.lua

local all, base = KEYS[1], KEYS[2]
local mode, numeric = ARGV[1], ARGV[2] == '1'
local offset, limit, afterId = tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local order, orderKey, orderField, desc = ARGV[6], ARGV[7], ARGV[8], ARGV[9] == '1'
local directions, partFlags = string.match(ARGV[9], '^(%a+):(%d+)$')
if directions then
  -- a keyset page in compound order runs one way: its first open part's
  desc = string.sub(directions, 1, 1) == 'd'
end
local after = ARGV[13]
local loadCount = tonumber(ARGV[14])
local loadFields = { unpack(ARGV, 15, 14 + loadCount) }
local program = 15 + loadCount -- index of the program's first instruction
local programLength = #ARGV - program + 1

-- every key the query reads is checked before the sweep writes anything (key-types.lua): one of another type
-- is refused by name
expectType(all, 'zset')
if orderKey ~= '' then
  expectType(orderKey, 'zset')
end
checkProgramTypes(program)

sweepDue(base, all, -1)

local q = newQuery(all, base)

-- One page of the sorted set `key` between `min` and `max` in the order, from `offset`, or after the keyset.
local function orderedPage(key, min, max)
  if order == 'lex' or order == 'compound' then
    -- a keyset page in compound order has one direction (the client refuses others): as in lex order
    if after ~= '' then
      if desc then
        max = '(' .. after
      else
        min = '(' .. after
      end
    end
    if order == 'compound' then
      return pageByCompound(key, min, max, directions, #partFlags - #directions, offset, limit)
    end
    return pageByLex(key, min, max, desc, offset, limit)
  end
  local skip = 0
  if after ~= '' then
    if desc then
      max = after
    else
      min = after
    end
    skip = tiesThrough(key, after, afterId, desc, numeric)
  end
  return pageByScore(key, min, max, desc, offset + skip, limit, numeric)
end

local ids
if ARGV[10] == '1' then
  local min, max = ARGV[11], ARGV[12]
  if mode == 'count' then
    return redis.call((order == 'lex' or order == 'compound') and 'ZLEXCOUNT' or 'ZCOUNT', orderKey, min, max)
  end
  ids = orderedPage(orderKey, min, max)
elseif programLength == 4 and (ARGV[program] == 'Z' or ARGV[program] == 'L') and order == 'id' and (numeric or mode == 'count') then
  -- One range of one index in id order (e.g. a composite index answering the whole where): the window is
  -- read directly and sorted by id (here for a page, by the client for a whole result), O(log N + M log M)
  -- with no temporary keys, where the general path below stores the window, intersects it with `all` and
  -- unlinks both (index entries are written and removed with their object, and due objects were swept
  -- above, so the window holds live ids only).
  local byScore, key, min, max = ARGV[program] == 'Z', ARGV[program + 1], ARGV[program + 2], ARGV[program + 3]
  if mode == 'count' then
    return redis.call(byScore and 'ZCOUNT' or 'ZLEXCOUNT', key, min, max)
  end
  local members = redis.call('ZRANGE', key, min, max, byScore and 'BYSCORE' or 'BYLEX')
  if not byScore then
    for m, member in ipairs(members) do
      members[m] = lexId(member)
    end
  end
  if offset == 0 and limit < 0 and afterId == '' then
    -- a whole page: the client puts it in id order (sortedByClient in src/store/lua/query.ts, same rule)
    ids = members
  else
    ids = pageOfSequenceIds(members, offset, limit, afterId)
  end
else
  if mode == 'count' and ARGV[program] == 'S' and programLength == 2 then
    return redis.call('SCARD', ARGV[program + 1])
  end
  local matches = matchingIds(q, program)
  if type(matches) == 'table' then
    return cleanupQuery(q, matches)
  end
  if mode == 'count' then
    return cleanupQuery(q, redis.call('ZCARD', matches))
  end
  if order == 'id' then
    ids = pageById(matches, offset, limit, afterId, numeric)
  elseif order == 'score' then
    local ordered = queryTemp(q)
    redis.call('ZINTERSTORE', ordered, 2, matches, orderKey, 'WEIGHTS', 0, 1)
    storedTemp(ordered)
    ids = orderedPage(ordered, '-inf', '+inf')
  elseif order == 'compound' then
    -- each match's member as the compound index holds it, from its stored parts (indexes.lua's compoundMember)
    local spec = { parts = {}, partNumeric = {} }
    for field in string.gmatch(orderField, '[^+]+') do
      local n = #spec.parts + 1
      spec.parts[n], spec.partNumeric[n] = field, string.sub(partFlags, n, n) == '1'
    end
    local ordered = queryTemp(q)
    for _, id in ipairs(redis.call('ZRANGE', matches, 0, -1)) do
      -- pcall: a listed id whose key holds another type than a hash is no object (as check() reads it), left out
      local held = redis.pcall('HMGET', base .. ':obj:' .. id, unpack(spec.parts))
      if not held.err then
        local values = {}
        for n, field in ipairs(spec.parts) do
          values[field] = held[n]
        end
        redis.call('ZADD', ordered, 0, compoundMember(spec, values, id))
      end
    end
    storedTemp(ordered)
    ids = orderedPage(ordered, '-', '+')
  else
    local ordered = queryTemp(q)
    local members = redis.call('ZRANGE', matches, 0, -1)
    for _, id in ipairs(members) do
      -- pcall: a listed id whose key holds another type than a hash is no object (as check() reads it), left out
      local value = redis.pcall('HGET', base .. ':obj:' .. id, orderField)
      if type(value) ~= 'table' then
        redis.call('ZADD', ordered, 0, lexMember(value, id))
      end
    end
    storedTemp(ordered)
    ids = orderedPage(ordered, '-', '+')
  end
end

if mode == 'ids' then
  return cleanupQuery(q, ids)
end
local out, n = {}, 0
local objects = base .. ':obj:'
-- pcall: a listed id whose key holds another type than a hash is no object (as check() reads it), left out
local call = redis.pcall
if loadCount > 0 then
  -- one flat list, n values per object (the id in place of `#id`): a nested reply costs about twice as much
  -- to build here and to parse in the client. A running count instead of #out (a search on every append).
  for i = 1, #ids do
    local id = ids[i]
    local values = call('HMGET', objects .. id, unpack(loadFields))
    if not values.err and values[1] then
      out[n + 1] = id
      for f = 2, loadCount do
        out[n + f] = values[f]
      end
      n = n + loadCount
    end
  end
else
  for i = 1, #ids do
    local id = ids[i]
    local fields = call('HGETALL', objects .. id)
    if #fields > 0 then
      out[n + 1] = id
      out[n + 2] = fields
      n = n + 2
    end
  end
end
return cleanupQuery(q, out)
