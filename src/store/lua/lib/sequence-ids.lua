-- sequence-ids.lua: drawing sequence ids and writing them out; a library inlined into the scripts that draw ids.
-- Needs key-types.lua before it.
-- KEYS/ARGV: none of its own.
-- Guarantees: an id is the decimal integer the sequence drew (tostring would write 1e+14 from 10^14 on, so two
-- draws would name one object); a draw past 2^53 - 1, where a Lua number no longer holds every integer, is
-- refused with 'RRSEQ <sequence key in hex>' (a RedisRecordError in the client) before anything is written
-- under it, and drawSequence takes it back, so the sequence stays where it was; a draw from a sequence holding
-- no integer is refused with 'RRNOINT <sequence key in hex>' (a RedisRecordError too), the sequence unchanged.

-- The refusal of a draw past 2^53 - 1 from `sequence` (the key in hex, as key-types.lua names keys).
local function refuseSequence(sequence)
  error({ err = 'RRSEQ ' .. hexOf(sequence) })
end

-- The text of `n`, a value drawn from `sequence`; a value past 2^53 - 1 is refused (refuseSequence).
local function sequenceText(n, sequence)
  if n > 9007199254740991 then
    refuseSequence(sequence)
  end
  return string.format('%d', n)
end

-- Draws the next `count` values of `sequence` and returns the last (INCRBY, refused whole by Redis when the key
-- holds another type, refused as key-types.lua's refuseReply refuses it, or no integer: 'RRNOINT'); a draw past
-- 2^53 - 1 is taken back and refused.
local function drawSequence(sequence, count)
  local drawn = redis.pcall('INCRBY', sequence, count)
  if type(drawn) == 'table' then
    if string.sub(drawn.err, 1, 27) == 'ERR value is not an integer' then
      error({ err = 'RRNOINT ' .. hexOf(sequence) })
    end
    refuseReply(drawn, sequence, 'string')
  end
  if drawn > 9007199254740991 then
    redis.call('DECRBY', sequence, count)
    refuseSequence(sequence)
  end
  return drawn
end

-- Raises `sequence` to `drawn` when it is below (never lowers it: invariant 5, ids are never reused) and returns
-- its value afterwards, as text. A sequence holding no number reads as 0. `drawn` is a count of draws at most
-- 2^53 - 1 (the k-th draw of a shard's sequence, for a sharded model's id). A key of another type is an error
-- from GET, before anything is written.
local function raiseSequence(sequence, drawn)
  local current = tonumber(redis.call('GET', sequence) or '0') or 0
  if current < drawn then
    local text = string.format('%d', drawn)
    redis.call('SET', sequence, text)
    return text
  end
  return string.format('%d', current)
end

-- The id of the `drawn`-th value of the sequence: the value itself, or for shard s of a model sharded n ways
-- (drawn - 1) * n + s + 1, so that shards draw distinct ids and an id names its shard ((id - 1) mod n).
local function sequenceId(model, drawn)
  if model.stride then
    return sequenceText((drawn - 1) * tonumber(model.stride) + tonumber(model.shard) + 1, model.sequence)
  end
  return sequenceText(drawn, model.sequence)
end

-- Draws the id of a new object from the model's sequence (drawSequence above); an id past 2^53 - 1
-- (a sharded model's ids run ahead of its draws) takes the draw back before it is refused.
local function drawSequenceId(model)
  local drawn = drawSequence(model.sequence, 1)
  if model.stride and (drawn - 1) * tonumber(model.stride) + tonumber(model.shard) + 1 > 9007199254740991 then
    redis.call('DECR', model.sequence)
  end
  return sequenceId(model, drawn)
end
