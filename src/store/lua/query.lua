-- query.lua: one query, answered inside Redis: set algebra over the indexes, order, offset and limit,
-- and (mode 'load') the attributes of the page, in one call.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the model's key base `<prefix>:{<Model>}`; index keys and the temporary keys <base>:tmp:<n> derive
--          from it (same hash tag, same Cluster slot)
-- ARGV[1]  mode: 'ids' | 'load' | 'count'
-- ARGV[2]  '1' when ids are sequence numbers (ties then ordered numerically), else '0'
-- ARGV[3]  offset;  ARGV[4] limit (-1: no limit);  ARGV[5] afterId ('' none; id order only)
-- ARGV[6]  order: 'id' | 'score' | 'lex';  ARGV[7] the order's index key;  ARGV[8] the order's attribute field
-- ARGV[9]  '1' descending, else '0'
-- ARGV[10] '1' when the page is read directly from a window of the order key, then ARGV[11] min, ARGV[12] max
-- ARGV[13] n, the number of hash fields a load reads, then ARGV[14..13+n] those fields, `#id` first (HMGET);
--          n = 0: every field (HGETALL)
-- ARGV[14+n..] the program (unless a window): instructions building the matching ids on a stack
--   S key | K key            an index set or sorted set as it is
--   Z key min max            ids of a sorted index with score in [min, max]   (ZRANGESTORE)
--   L key min max            ids of a lex index with member in [min, max]
--   U key field              the owner of a unique value
--   0                        nothing
--   & n | '|' n              intersection / union of the top n
--   (an empty program means every object)
-- Returns: 'count' the number of matches; 'ids' the page's ids; 'load' with n > 0: n values per object, flat:
--          the id, then the HMGET values of fields 2..n (nil for an absent one); with n = 0: id, HGETALL list,
--          id, HGETALL list ...; an object whose hash vanished (no `#id`) is left out. A whole page (offset 0, no
--          limit, no afterId) read from one window in id order comes in the window's order: the client sorts it
-- Guarantees: reads one consistent state (the script is atomic); objects whose time has come are swept first
-- and the matches are intersected with `all` (or, for a program of one range in id order with sequence ids,
-- read from that one window, whose entries are live objects' own), so only live objects are returned;
-- temporary keys expire after 10 s even if the script fails, and are unlinked at the end. An index key of
-- another type is refused (key-types.lua) before anything is written; a listed id whose key is not a hash is
-- no object and is left out of a load.
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include objects.lua
--!include pages.lua

local all, base = KEYS[1], KEYS[2]
local mode, numeric = ARGV[1], ARGV[2] == '1'
local offset, limit, afterId = tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local order, orderKey, orderField, desc = ARGV[6], ARGV[7], ARGV[8], ARGV[9] == '1'
local loadCount = tonumber(ARGV[13])
local loadFields = { unpack(ARGV, 14, 13 + loadCount) }
local program = 14 + loadCount -- index of the program's first instruction
local programLength = #ARGV - program + 1

-- every key the query reads is checked before the sweep writes anything (key-types.lua): one of another type
-- is refused by name
expectType(all, 'zset')
if orderKey ~= '' then
  expectType(orderKey, 'zset')
end
local at = program
while at <= #ARGV do
  local op = ARGV[at]
  if op == 'S' or op == 'K' then
    expectType(ARGV[at + 1], op == 'S' and 'set' or 'zset')
    at = at + 2
  elseif op == 'Z' or op == 'L' then
    expectType(ARGV[at + 1], 'zset')
    at = at + 4
  elseif op == 'U' then
    expectType(ARGV[at + 1], 'hash')
    at = at + 3
  else
    at = at + (op == '0' and 1 or 2)
  end
end

sweepDue(base, all, -1)

local temps = {}
local function temp()
  local key = base .. ':tmp:' .. (#temps + 1)
  temps[#temps + 1] = key
  -- a query that failed may have left this name behind (for at most 10 s): start empty
  redis.call('UNLINK', key)
  return key
end
-- Gives a temporary key its 10 s time to live: called once the key exists (a PEXPIRE of a missing key does
-- nothing), so that a query failing after it leaves nothing behind for long.
local function stored(key)
  redis.call('PEXPIRE', key, 10000)
  return key
end
local function cleanup(result)
  -- UNLINK frees large temporary sets in the background instead of inside this script
  for start = 1, #temps, 1000 do
    redis.call('UNLINK', unpack(temps, start, math.min(start + 999, #temps)))
  end
  return result
end

local function run(from)
  local stack = {}
  local i = from
  local function pop(n)
    local keys = {}
    for k = #stack - n + 1, #stack do
      keys[#keys + 1] = stack[k]
      stack[k] = nil
    end
    return keys
  end
  while i <= #ARGV do
    local op = ARGV[i]
    if op == 'S' or op == 'K' then
      stack[#stack + 1] = ARGV[i + 1]
      i = i + 2
    elseif op == 'Z' then
      local key = temp()
      redis.call('ZRANGESTORE', key, ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], 'BYSCORE')
      stack[#stack + 1] = stored(key)
      i = i + 4
    elseif op == 'L' then
      local key = temp()
      local members = redis.call('ZRANGE', ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], 'BYLEX')
      for start = 1, #members, 1000 do
        local ids = {}
        for m = start, math.min(start + 999, #members) do
          ids[#ids + 1] = lexId(members[m])
        end
        redis.call('SADD', key, unpack(ids))
      end
      stack[#stack + 1] = stored(key)
      i = i + 4
    elseif op == 'U' then
      local key = temp()
      local owner = redis.call('HGET', ARGV[i + 1], ARGV[i + 2])
      if owner then
        redis.call('SADD', key, owner)
        stored(key)
      end
      stack[#stack + 1] = key
      i = i + 3
    elseif op == '0' then
      stack[#stack + 1] = temp()
      i = i + 1
    elseif op == '&' or op == '|' then
      local n = tonumber(ARGV[i + 1])
      local key = temp()
      local command = op == '&' and 'ZINTERSTORE' or 'ZUNIONSTORE'
      local operands = pop(n)
      -- in chunks: Lua's unpack takes about 8000 values at most (a long `in` list)
      for start = 1, #operands, 1000 do
        local chunk = { unpack(operands, start, math.min(start + 999, #operands)) }
        if start > 1 then
          table.insert(chunk, 1, key)
        end
        redis.call(command, key, #chunk, unpack(chunk))
      end
      stack[#stack + 1] = stored(key)
      i = i + 2
    else
      return redis.error_reply('query.lua: unknown instruction ' .. tostring(op))
    end
  end
  return stack[1]
end

local ids
if ARGV[10] == '1' then
  local min, max = ARGV[11], ARGV[12]
  if mode == 'count' then
    return redis.call(order == 'lex' and 'ZLEXCOUNT' or 'ZCOUNT', orderKey, min, max)
  end
  if order == 'lex' then
    ids = pageByLex(orderKey, min, max, desc, offset, limit)
  else
    ids = pageByScore(orderKey, min, max, desc, offset, limit, numeric)
  end
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
  local matches = all
  if programLength > 0 then
    if mode == 'count' and ARGV[program] == 'S' and programLength == 2 then
      return redis.call('SCARD', ARGV[program + 1])
    end
    local found = run(program)
    if type(found) == 'table' then
      return cleanup(found)
    end
    matches = temp()
    -- MAX, not the default SUM: a match's score must stay its id. A scoped index used as a set ('K') holds
    -- +inf for objects without a value, and inf * 0 is NaN, which SUM stores as 0 when Redis walks `all`
    -- first (the sets being of one size); MAX keeps the id (a NaN never wins), and 0 never beats an id.
    redis.call('ZINTERSTORE', matches, 2, all, found, 'WEIGHTS', 1, 0, 'AGGREGATE', 'MAX')
    -- its time to live once it exists (a PEXPIRE of a missing key does nothing)
    stored(matches)
  end
  if mode == 'count' then
    return cleanup(redis.call('ZCARD', matches))
  end
  if order == 'id' then
    ids = pageById(matches, offset, limit, afterId, numeric)
  elseif order == 'score' then
    local ordered = temp()
    redis.call('ZINTERSTORE', ordered, 2, matches, orderKey, 'WEIGHTS', 0, 1)
    stored(ordered)
    ids = pageByScore(ordered, '-inf', '+inf', desc, offset, limit, numeric)
  else
    local ordered = temp()
    local members = redis.call('ZRANGE', matches, 0, -1)
    for _, id in ipairs(members) do
      -- pcall: a listed id whose key holds another type than a hash is no object (as check() reads it), left out
      local value = redis.pcall('HGET', base .. ':obj:' .. id, orderField)
      if type(value) ~= 'table' then
        redis.call('ZADD', ordered, 0, lexMember(value, id))
      end
    end
    stored(ordered)
    ids = pageByLex(ordered, '-', '+', desc, offset, limit)
  end
end

if mode == 'ids' then
  return cleanup(ids)
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
return cleanup(out)
