-- gathered-removal.lua: removing many objects of one key base in one script, with their deletes gathered into
-- one command per key (batches.lua); a library inlined into remove-indexed-many.lua and remove-many.lua. Needs
-- key-types.lua, indexes.lua and batches.lua before it. KEYS: none of its own; ARGV: the ids, at the positions
-- the script gives.
-- Guarantees: every object's entries are found (read), and every key to write checked (key-types.lua: a key of
-- another type refuses the whole call), before anything is deleted; then each object's hash
-- (and memo), its `all` (and `exp`) entry and every entry that was named go together, in the calling script,
-- so no client sees part of it. An id given twice is removed once.

-- Turns drop(command, key, member) into the drop(kind, key, member, id) of objectEntries: SREM or ZREM of an
-- index entry, HDEL of a unique value only while it names the object.
local function commandDrop(drop)
  return function(kind, key, member, id)
    if kind == 'S' then
      drop('SREM', key, member)
    elseif kind == 'Z' then
      drop('ZREM', key, member)
    else
      expectType(key, 'hash')
      if redis.call('HGET', key, member) == id then
        drop('HDEL', key, member)
      end
    end
  end
end

-- Removes the objects whose ids are ARGV[from .. to]. entriesOf(id, drop) names the entries of each object
-- through drop(command, key, member); with `memos`, each object's memo and `exp` entry go too. Without `memos`,
-- entriesOf reads each object's hash (indexed-removal.lua), which refuses one of another type. Returns one
-- value per id: 1 when it was live (in `all`, and with `memos`, whose objects may expire, with its hash), else
-- 0 (an object whose time had come, an id given again).
local function removeGathered(all, base, from, to, memos, entriesOf)
  local batch = newBatch()
  -- every key written is checked while the entries are gathered, before the first write (key-types.lua)
  local seen = {}
  expectType(all, 'zset')
  if memos then
    expectType(base .. ':exp', 'zset')
  end
  local drop = function(command, key, member)
    expectCommandKey(command, key, member, seen)
    batchAdd(batch, command, key, member)
  end
  local replies, done, ids, keys = {}, {}, {}, {}
  for start = from, to, 1000 do
    local stop = math.min(start + 999, to)
    local listed = redis.call('ZMSCORE', all, unpack(ARGV, start, stop))
    for at = start, stop do
      local id, n = ARGV[at], at - from + 1
      replies[n] = 0
      if not done[id] then
        done[id] = true
        if memos then
          expectType(base .. ':obj:' .. id, 'hash')
          expectType(base .. ':memo:' .. id, 'hash')
        end
        entriesOf(id, drop)
        ids[#ids + 1] = id
        keys[#keys + 1] = base .. ':obj:' .. id
        if memos then
          keys[#keys + 1] = base .. ':memo:' .. id
        end
        if listed[at - start + 1] and (not memos or isHash(base .. ':obj:' .. id)) then
          replies[n] = 1
        end
      end
    end
  end
  runBatch(batch)
  callInSlices('DEL', false, keys)
  if memos then
    callInSlices('ZREM', base .. ':exp', ids)
  end
  callInSlices('ZREM', all, ids)
  return replies
end
