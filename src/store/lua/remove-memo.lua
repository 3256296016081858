-- remove-memo.lua: delete one object of a model whose objects may keep a memo of their entries (a ttl, a cap,
-- or `expirable`) and that nothing depends on (no dependent model, no many-to-many membership). remove.lua does
-- the models with relations; remove-indexed.lua those without a memo.
-- KEYS[1]  the model's `all` zset
-- KEYS[2]  the object's hash
-- KEYS[3]  the model's key base (memo, `exp` and index keys derive from it, same hash tag)
-- ARGV[1]  the id
-- SPEC     as remove-indexed.lua's, bound into the source per model (src/store/indexed-removal.ts), never sent
-- Returns: 1 when the object was in `all` (even if its hash had just expired), else 0.
-- Guarantees: the hash, its memo, its `all` and `exp` entries and every index and unique entry disappear
-- together (invariants 1 to 4); the entries are read from the memo (only those that can be the object's own:
-- objects.lua's memoEntries), or, for an object without one, found from its stored values; a unique value is
-- released only by its owner. This is what remove.lua does for such an object, without reading a model table.
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include objects.lua
--!include indexed-removal.lua

local all, key, base, id = KEYS[1], KEYS[2], KEYS[3], ARGV[1]
-- every key written is checked first (key-types.lua): refused, the call writes nothing
expectType(all, 'zset')
expectType(key, 'hash')
expectType(base .. ':exp', 'zset')
expectType(base .. ':memo:' .. id, 'hash')
-- without a memo, the entries are found from the stored values, read once (checkedIndexedEntries)
local drops
if not memoEntries(base, id, expectEntry) then
  drops = checkedIndexedEntries(key, base, id)
end
local existed = redis.call('ZSCORE', all, id) and 1 or 0
if drops then
  applyDrops(drops)
else
  memoEntries(base, id, dropEntry)
end
redis.call('DEL', key, base .. ':memo:' .. id)
redis.call('ZREM', base .. ':exp', id)
redis.call('ZREM', all, id)
return existed
