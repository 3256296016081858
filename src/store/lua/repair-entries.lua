-- repair-entries.lua: remove index entries that name no live object or do not match its stored value.
-- KEYS[1]  the model's `all` zset;  KEYS[2] the model's key base;  KEYS[3] the index key
-- ARGV[1..4]  the index's spec (indexes.lua; a tag index's KEYS[3] is the set of one element);  ARGV[5..]  members (unique index: values) of KEYS[3] to check
-- Returns: how many entries were removed. A correct sorted entry with a wrong score is not removed (the
-- object's repair re-scores it); an entry of an expired object awaiting its sweep is left to the sweep. An
-- entry naming a key that is not a hash (written by something else) names no object, and is removed; so is
-- an entry naming an id that is no valid id (ids.lua: `a:b`), even while `all` lists it or a hash is stored
-- under `<base>:obj:a:b`: no object has such an id. A case-insensitive unique value is judged by the object's
-- `#ci:` field (Lua cannot lower-case Unicode the way JavaScript does): repair() runs an object's own repair,
-- which sets that field from its value, before this.
-- Guarantees: each entry is judged against what is stored at that instant (invariants 3 and 4).
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include ids.lua

local all, base, indexKey = KEYS[1], KEYS[2], KEYS[3]
local specs, fields = readSpecs(1, 1)
local spec = specs[1]
local removed = 0

local function remove(member, id)
  if spec.kind == 'S' or spec.kind == 'T' then
    removed = removed + redis.call('SREM', indexKey, member)
  elseif spec.kind == 'Z' or spec.kind == 'L' or spec.kind == 'K' then
    removed = removed + redis.call('ZREM', indexKey, member)
  elseif id and redis.call('HGET', indexKey, member) == id then
    removed = removed + redis.call('HDEL', indexKey, member)
  end
end

for i = 5, #ARGV do
  local member = ARGV[i]
  local id = member
  if spec.kind == 'L' then
    local at = string.find(member, '\0\0', 1, true)
    id = at and string.sub(member, at + 3) or ''
  elseif spec.kind == 'K' then
    -- after the last part's \0\0 and the length byte
    id = string.match(member, '%z%z.([^%z]*)$') or ''
  elseif isUnique(spec) then
    id = redis.call('HGET', indexKey, member)
  end
  if id and id ~= '' then
    local key = base .. ':obj:' .. id
    local listed = isValidId(id) and redis.call('ZSCORE', all, id)
    if not listed or not isHash(key) then
      if not (listed and redis.call('ZSCORE', base .. ':exp', id)) then
        remove(member, id)
      end
    else
      local wanted = false
      eachEntry(base, spec, readValues(key, fields), id, function(_, entryKey, entryMember)
        wanted = wanted or (entryKey == indexKey and entryMember == member)
      end)
      if not wanted then
        remove(member, id)
      end
    end
  elseif spec.kind == 'L' or spec.kind == 'K' then
    remove(member, nil)
  end
end
return removed
