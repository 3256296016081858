-- compound-pages.lua: pages of a compound index (indexes.lua's K entries) in an order whose parts may run in
-- different directions (`orderBy: [{ score: 'desc' }, { createdAt: 'asc' }]`); a library inlined into query.lua.
-- Needs pages.lua (lexId) before it.
-- KEYS/ARGV: none of its own.
-- A zset read BYLEX runs one way; where the directions change, the walk takes the groups of equal leading parts
-- one at a time in the outer direction and reads each group's members in the inner one: O(g log N + k) for a page
-- of k members spread over g groups (g = 1 when every direction is the same).

-- The length of the prefix of `member` that ends with the separator after its `level`-th part (parts are
-- escaped: \0\0 only ever separates them, and a NUL inside a part is \0\1).
local function compoundGroupEnd(member, level)
  local at = -1
  for _ = 1, level do
    at = string.find(member, '\0\0', at + 2, true)
  end
  return at + 1
end

-- Appends to `out` the ids of the members of `key` in [lo, hi] (BYLEX bounds) in the order `dirs` gives from part
-- `skip + level` on ('a' or 'd' per part after the first `skip`), until `out` holds `need`. The first `skip` parts
-- hold one value each in [lo, hi] (equalities), and [lo, hi] cuts the next part's values only between groups of
-- equal values (a range) and no later part's: so each group taken here lies whole in [lo, hi].
local function walkCompound(key, lo, hi, dirs, skip, level, need, out)
  local dir = string.sub(dirs, level, level)
  local function read(from, to, count)
    if dir == 'a' then
      return redis.call('ZRANGE', key, from, to, 'BYLEX', 'LIMIT', 0, count)
    end
    return redis.call('ZRANGE', key, to, from, 'BYLEX', 'REV', 'LIMIT', 0, count)
  end
  if not string.find(dirs, dir == 'a' and 'd' or 'a', level, true) then
    -- one direction from here on: one read
    local members = read(lo, hi, need == math.huge and -1 or need - #out)
    for _, member in ipairs(members) do
      out[#out + 1] = lexId(member)
    end
    return
  end
  while #out < need do
    local first = read(lo, hi, 1)[1]
    if not first then
      return
    end
    local group = string.sub(first, 1, compoundGroupEnd(first, skip + level))
    -- the members after the group's: its last byte (\0 of the separator) raised to \1
    local after = string.sub(group, 1, -2) .. '\1'
    walkCompound(key, '[' .. group, '(' .. after, dirs, skip, level + 1, need, out)
    if dir == 'a' then
      lo = '[' .. after
    else
      hi = '(' .. group
    end
  end
end

-- The page (`offset`, `limit` -1: all) of the ids of `key`'s members in [min, max], in the order of `dirs`, the
-- directions of the parts after the first `skip` (which the where pins to one value each).
local function pageByCompound(key, min, max, dirs, skip, offset, limit)
  if limit == 0 then
    return {}
  end
  local out = {}
  walkCompound(key, min, max, dirs, skip, 1, limit < 0 and math.huge or offset + limit, out)
  local page = {}
  for i = offset + 1, #out do
    page[#page + 1] = out[i]
  end
  return page
end
