-- replace-definition.lua: replace a model's stored definition only while it is the one the caller read
-- (compare and set), so that a definition another connection stored meanwhile is never overwritten unseen.
-- KEYS[1]  the prefix's registry of model definitions, `<prefix>#models` (hash: model name -> JSON)
-- ARGV[1]  the model's name;  ARGV[2] the definition JSON read;  ARGV[3] the definition JSON to store
-- Returns: 1 when ARGV[3] was stored, 0 when the stored definition was no longer ARGV[2] (nothing written).
-- Guarantees: the read and the write are one step: no definition stored between them is lost.
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
