-- batches.lua: writes gathered per key and sent as one command per key, with many arguments; a library inlined
-- into the bulk scripts (save-many.lua, remove-indexed-many.lua). KEYS/ARGV: none of its own.
-- Guarantees: none of its own: a batch changes how many commands carry the writes, not the writes. The script
-- that uses it runs them inside its own call, so no client sees a batch half sent.

-- Calls `command key` with `values` appended (`command` alone when `key` is false), in slices: Lua's unpack
-- takes about 8000 values at most.
local function callInSlices(command, key, values)
  for start = 1, #values, 1000 do
    local stop = math.min(start + 999, #values)
    if key then
      redis.call(command, key, unpack(values, start, stop))
    else
      redis.call(command, unpack(values, start, stop))
    end
  end
end

-- A batch: command -> key -> the arguments to add to it, in first-seen order of command and key (so that replies
-- are reproducible). (Keyed by command, then key, rather than by the two joined: no string is built per entry.)
local function newBatch()
  return { order = {}, args = {} }
end

-- Adds `a` (and `b`, when given) to the arguments of `command key` in the batch.
local function batchAdd(batch, command, key, a, b)
  local byKey = batch.args[command]
  if not byKey then
    byKey = {}
    batch.args[command] = byKey
  end
  local list = byKey[key]
  if not list then
    list = {}
    byKey[key] = list
    batch.order[#batch.order + 1] = { command, key }
  end
  list[#list + 1] = a
  if b ~= nil then
    list[#list + 1] = b
  end
end

-- Sends the batch: one command per key and command, in the order they were first added.
local function runBatch(batch)
  for _, target in ipairs(batch.order) do
    callInSlices(target[1], target[2], batch.args[target[1]][target[2]])
  end
end
