-- save-many.lua: create a chunk of new objects of one model, each exactly as save.lua creates one.
-- KEYS[1]  the model's sequence (string)
-- KEYS[2]  the model's `all` zset
-- KEYS[3]  the model's key base `<prefix>:{<Model>}` (object, memo and index keys derive from it, same hash tag)
-- ARGV[1]  the time to live in ms ('' for none)
-- ARGV[2]  '1' to keep a memo of each object's index entries (models with a TTL or a cap)
-- ARGV[3]  the @Version field ('' none); new objects carry their version 1 among their fields
-- ARGV[4]  the cap's index key ('' none); ARGV[5] how many to keep; ARGV[6] 'asc' keeps the lowest
-- ARGV[7]  the id form, as save.lua's ARGV[10]: '0' given ids, '1' sequence, 'n:s' shard s of n
-- ARGV[8]  k; then k index specs (kind, attribute, scope, numeric: see indexes.lua): every index of the model
-- then     p; then p pairs (foreign key field, the parent model's object key prefix): a value of such a field
--          must name a live parent object
-- then     c, the number of objects; then per object: its id ('' takes the next sequence value), n, and n
--          field, value pairs
-- Returns: an array of c outcomes, in order, each what save.lua returns for a create: the id; false when the
--          given id exists; {'unique', attribute}; {'relation', field}.
-- Guarantees: each object is applied as save.lua applies it (save-object.lua): its checks run before its first
-- write, so a refused object writes nothing, and its hash, `all` entry and index and unique entries are written
-- together (invariants 1 to 5). Objects are applied in order, so a unique value taken by an earlier object of
-- the chunk refuses a later one. A refused object does not stop the others. The cap is kept after each object.
--!include indexes.lua
--!include objects.lua
--!include pages.lua
--!include caps.lua
--!include save-object.lua

local model = saveContext(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7])
local specCount = tonumber(ARGV[8])
local specs, fields = readSpecs(9, specCount)
local parentsFrom = 9 + 4 * specCount
local at = parentsFrom + 1 + 2 * tonumber(ARGV[parentsFrom])
local count = tonumber(ARGV[at])
at = at + 1

local outcomes = {}
for i = 1, count do
  local id = ARGV[at]
  local setCount = tonumber(ARGV[at + 1])
  local setFrom = at + 2
  -- delFrom/delCount: a new object removes no field
  outcomes[i] = saveObject(model, 'c', id, '', setFrom, setCount, setFrom, 0, specs, fields, parentsFrom)
  at = setFrom + 2 * setCount
end
return outcomes
