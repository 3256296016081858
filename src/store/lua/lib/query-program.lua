-- query-program.lua: the set algebra of a query's program (the instructions a where compiles to,
-- src/query/compile-where.ts); a library inlined into query.lua and count-by.lua. Needs key-types.lua and
-- pages.lua (lexId) before it.
-- KEYS/ARGV: none of its own; the program is ARGV[from ..]:
--   S key | K key            an index set or sorted set as it is
--   A                        the model's `all`
--   Z key min max            ids of a sorted index with score in [min, max]   (ZRANGESTORE)
--   L key min max            ids of a lex index with member in [min, max]
--   U key field              the owner of a unique value
--   V key                    the owners of every value of a unique index (HVALS)
--   0                        nothing
--   & n | '|' n | - n        intersection / union / difference (the first minus the others) of the top n
-- A query's state is a table { all, base, temps }: temporary keys are <base>:tmp:<n> (same hash tag as the
-- model's keys), given a 10 s time to live once they exist, and unlinked by cleanupQuery.

local function newQuery(all, base)
  return { all = all, base = base, temps = {} }
end

-- Refuses (key-types.lua) an index key of another type than the program reads, before anything is written.
local function checkProgramTypes(from)
  local at = from
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
    elseif op == 'V' then
      expectType(ARGV[at + 1], 'hash')
      at = at + 2
    else
      at = at + ((op == '0' or op == 'A') and 1 or 2)
    end
  end
end

-- A new temporary key, empty (a query that failed may have left this name behind, for at most 10 s).
local function queryTemp(q)
  local key = q.base .. ':tmp:' .. (#q.temps + 1)
  q.temps[#q.temps + 1] = key
  redis.call('UNLINK', key)
  return key
end

-- Gives a temporary key its 10 s time to live: called once the key exists (a PEXPIRE of a missing key does
-- nothing), so that a query failing after it leaves nothing behind for long.
local function storedTemp(key)
  redis.call('PEXPIRE', key, 10000)
  return key
end

-- Unlinks the query's temporary keys (in the background: large sets are not freed inside the script).
local function cleanupQuery(q, result)
  local temps = q.temps
  for start = 1, #temps, 1000 do
    redis.call('UNLINK', unpack(temps, start, math.min(start + 999, #temps)))
  end
  return result
end

-- SADDs `ids` to `key` in chunks (Lua's unpack takes about 8000 values at most).
local function addInChunks(key, ids)
  for start = 1, #ids, 1000 do
    redis.call('SADD', key, unpack(ids, start, math.min(start + 999, #ids)))
  end
end

-- Runs the program at ARGV[from ..]; returns the key holding its ids (a set or a sorted set).
local function runProgram(q, from)
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
    elseif op == 'A' then
      stack[#stack + 1] = q.all
      i = i + 1
    elseif op == 'Z' then
      local key = queryTemp(q)
      redis.call('ZRANGESTORE', key, ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], 'BYSCORE')
      stack[#stack + 1] = storedTemp(key)
      i = i + 4
    elseif op == 'L' then
      local key = queryTemp(q)
      local members = redis.call('ZRANGE', ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], 'BYLEX')
      for m = 1, #members do
        members[m] = lexId(members[m])
      end
      addInChunks(key, members)
      stack[#stack + 1] = storedTemp(key)
      i = i + 4
    elseif op == 'U' then
      local key = queryTemp(q)
      local owner = redis.call('HGET', ARGV[i + 1], ARGV[i + 2])
      if owner then
        redis.call('SADD', key, owner)
        storedTemp(key)
      end
      stack[#stack + 1] = key
      i = i + 3
    elseif op == 'V' then
      local key = queryTemp(q)
      addInChunks(key, redis.call('HVALS', ARGV[i + 1]))
      stack[#stack + 1] = storedTemp(key)
      i = i + 2
    elseif op == '0' then
      stack[#stack + 1] = queryTemp(q)
      i = i + 1
    elseif op == '&' or op == '|' or op == '-' then
      local n = tonumber(ARGV[i + 1])
      local key = queryTemp(q)
      local operands = pop(n)
      if op == '-' then
        -- a difference has few operands (the rest of a where level, then one per negation)
        redis.call('ZDIFFSTORE', key, #operands, unpack(operands))
      else
        local command = op == '&' and 'ZINTERSTORE' or 'ZUNIONSTORE'
        -- in chunks: Lua's unpack takes about 8000 values at most (a long `in` list)
        for start = 1, #operands, 1000 do
          local chunk = { unpack(operands, start, math.min(start + 999, #operands)) }
          if start > 1 then
            table.insert(chunk, 1, key)
          end
          redis.call(command, key, #chunk, unpack(chunk))
        end
      end
      stack[#stack + 1] = storedTemp(key)
      i = i + 2
    else
      return redis.error_reply('query: unknown instruction ' .. tostring(op))
    end
  end
  return stack[1]
end

-- The live ids the program at ARGV[from ..] matches, as a sorted set scored like `all` (every object when the
-- program is empty: `all` itself).
local function matchingIds(q, from)
  if from > #ARGV then
    return q.all
  end
  local found = runProgram(q, from)
  if type(found) == 'table' then
    return found
  end
  local matches = queryTemp(q)
  -- MAX, not the default SUM: a match's score must stay its id. A scoped index used as a set ('K') holds
  -- +inf for objects without a value, and inf * 0 is NaN, which SUM stores as 0 when Redis walks `all`
  -- first (the sets being of one size); MAX keeps the id (a NaN never wins), and 0 never beats an id.
  redis.call('ZINTERSTORE', matches, 2, q.all, found, 'WEIGHTS', 1, 0, 'AGGREGATE', 'MAX')
  storedTemp(matches)
  return matches
end
