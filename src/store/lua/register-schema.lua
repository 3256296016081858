-- register-schema.lua: store a model's definition the first time a connection uses the model.
-- KEYS[1]  the prefix's registry of model definitions, `<prefix>#models` (hash: model name -> JSON)
-- ARGV[1]  the model's name;  ARGV[2] its current definition (JSON, src/schema/stored-definition.ts)
-- ARGV[3]  the current definition's index signature (sorted index names joined by ',', see indexSignature)
-- ARGV[4]  the current definition's layout signature (`<group>|<shards>`, see layoutSignature)
-- ARGV[5]  the current definition without `memosKept` (JSON), when the current one has it (a model with a ttl or
--          a cap: every object it writes keeps a memo); '' otherwise
-- Returns: the definition stored before this call, or nil when there was none (then ARGV[2] is now stored).
-- Guarantees: a stored definition whose indexes differ from the current ones is never replaced here: only
-- reindex() replaces it, once the data holds the new indexes. Nor is one whose layout (group, shards) differs:
-- its data is under other keys, which the stored definition still names. Nor is one naming stale indexes (see
-- markStale in src/schema/schema-registry.ts): only reindex() rebuilds them. One that differs in anything else
-- (attributes, relations, ttl) is replaced at once: the indexes and keys it describes are still the data's.
-- `memosKept` (every object keeps a memo) is never stored unless it was stored before or nothing was: a model
-- given a ttl or a cap holds objects written without a memo until reindex() writes them, and reindex() stores
-- it back.

local function indexSignature(definition)
  local names = {}
  for _, index in ipairs(definition.indexes) do
    local scope = ''
    if type(index.scope) == 'string' then
      scope = '@' .. index.scope
    end
    names[#names + 1] = index.kind .. ':' .. index.attribute .. scope .. (index.caseInsensitive and '/ci' or '')
  end
  table.sort(names)
  return table.concat(names, ',')
end

local function layoutSignature(definition)
  local group = type(definition.group) == 'string' and definition.group or ''
  local shards = type(definition.shards) == 'number' and definition.shards or 1
  return group .. '|' .. string.format('%d', shards)
end

local stored = redis.call('HGET', KEYS[1], ARGV[1])
if not stored then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
elseif stored ~= ARGV[2] then
  local ok, definition = pcall(cjson.decode, stored)
  if ok and type(definition) == 'table' and type(definition.indexes) == 'table' and indexSignature(definition) == ARGV[3]
    and layoutSignature(definition) == ARGV[4] and (type(definition.stale) ~= 'table' or #definition.stale == 0) then
    local replacement = ARGV[2]
    if ARGV[5] ~= '' and definition.memosKept ~= true then
      replacement = ARGV[5]
    end
    if replacement ~= stored then
      redis.call('HSET', KEYS[1], ARGV[1], replacement)
    end
  end
end
return stored
