-- count-by.lua: how many live objects hold each value of one attribute, among all or those a where matches
-- (facets), counted inside Redis in one call.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the model's key base `<prefix>:{<Model>}`; index keys, object keys and the temporary keys
--          <base>:tmp:<n> derive from it (same hash tag, same Cluster slot)
-- ARGV[1]  the attribute's hash field
-- ARGV[2]  where the values are read: 'score' (ARGV[3] the attribute's unscoped score index: scores),
--          'lex' (ARGV[3] its unscoped lex index, read whole: only with an empty program) or 'hash' (ARGV[3]
--          '': each match's hash field) or 'tags' (ARGV[3] '': each element of each match's JSON array, the field
--          of a tag index: composed-entries.lua's tagElements)
-- ARGV[4..] the program (query-program.lua) of the where; empty: every object
-- Returns: value, count, value, count ... in no particular order, for the values held (an object without a
--          value is counted nowhere); a score index gives its values as scores ('inf' left out).
-- Guarantees: one consistent state (atomic); due objects are swept first and only live objects are counted;
-- temporary keys expire after 10 s even if the script fails, and are unlinked at the end; an index key of
-- another type is refused (key-types.lua) before anything is written. Cost: O(matches) (with a where on a score
-- index, O(matches log N)); no object is read with a score index or a whole lex index.
--!include key-types.lua
--!include composed-entries.lua
--!include indexes.lua
--!include objects.lua
--!include pages.lua
--!include query-program.lua

local all, base = KEYS[1], KEYS[2]
local field, source, sourceKey = ARGV[1], ARGV[2], ARGV[3]
local program = 4

expectType(all, 'zset')
if source ~= 'hash' and source ~= 'tags' then
  expectType(sourceKey, 'zset')
end
checkProgramTypes(program)

sweepDue(base, all, -1)

local q = newQuery(all, base)
local counts, values = {}, {}
local function count(value)
  local n = counts[value]
  if n then
    counts[value] = n + 1
  else
    counts[value] = 1
    values[#values + 1] = value
  end
end

-- calls each(member, score) for the members of sorted set `key`, 1000 at a time
local function eachMember(key, withScores, each)
  local total = redis.call('ZCARD', key)
  for start = 0, total - 1, 1000 do
    local rows = withScores and redis.call('ZRANGE', key, start, start + 999, 'WITHSCORES') or redis.call('ZRANGE', key, start, start + 999)
    local step = withScores and 2 or 1
    for i = 1, #rows, step do
      each(rows[i], rows[i + 1])
    end
  end
end

if source == 'lex' then
  eachMember(sourceKey, false, function(member)
    -- an absent value's member starts with \255, after every UTF-8 string
    if string.byte(member, 1) ~= 255 then
      local value = string.match(member, '^(.-)%z%z[^%z]*$')
      count((string.gsub(value, '%z\1', '\0')))
    end
  end)
else
  local matches = matchingIds(q, program)
  if type(matches) == 'table' then
    return cleanupQuery(q, matches)
  end
  if source == 'score' then
    local scored = sourceKey
    if matches ~= all then
      scored = queryTemp(q)
      redis.call('ZINTERSTORE', scored, 2, matches, sourceKey, 'WEIGHTS', 0, 1)
      storedTemp(scored)
    end
    eachMember(scored, true, function(_, score)
      if score ~= 'inf' then
        -- -0 and 0 are one value
        count(tonumber(score) == 0 and '0' or score)
      end
    end)
  else
    local objects = base .. ':obj:'
    eachMember(matches, false, function(id)
      -- pcall: a listed id whose key holds another type than a hash is no object (as check() reads it)
      local value = redis.pcall('HGET', objects .. id, field)
      if type(value) ~= 'string' then
        return
      end
      if source == 'tags' then
        for _, element in ipairs(tagElements(value)) do
          count(element)
        end
      else
        count(value)
      end
    end)
  end
end

local out = {}
for _, value in ipairs(values) do
  out[#out + 1] = value
  out[#out + 1] = counts[value]
end
return cleanupQuery(q, out)
