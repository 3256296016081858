-- save.lua: create or update one object together with its index and unique entries.
-- KEYS[1]  the model's sequence (string)
-- KEYS[2]  the model's `all` zset
-- KEYS[3]  the model's key base `<prefix>:{<Model>}`; the object's hash (<base>:obj:<id>) and its index keys
--          derive from it and share its hash tag, so they are in the same Cluster slot
-- ARGV[1]  'c' create | 'u' update
-- ARGV[2]  the id; '' on create takes the next value of the sequence (and scores it in `all` by value;
--          given ids, such as uuids, are scored 0 and so ordered by id)
-- ARGV[3]  the time to live in ms ('' for none): a created object then keeps a memo and an `exp` entry; an
--          updated one gets it with the write (its memo rewritten, as expire.lua does), else keeps its own
-- ARGV[4]  '1' to keep a memo of the object's index entries (models with a TTL or a cap), 'e' to sweep up to
--          10 objects whose time has come (expirable models), 'E' both, '0' neither; on update, '0' or '1'
--          also says the model's objects never get a time to live (`exp` is then neither read nor checked)
-- ARGV[5]  the @Version field ('' none); ARGV[6] update only: the version the client read
-- ARGV[7]  the cap's index key ('' none), or for a cap per value the stem of its groups' keys (caps.lua);
--          ARGV[8] how many to keep; ARGV[9] 'asc' keeps the lowest, 'desc' the highest, followed for a cap
--          per value by '@', the field of `per` and '#' when it holds numbers ('desc@userId': readCap)
-- ARGV[10] '0' for given ids; '1' when ids are sequence numbers (cap ties ordered numerically); 'n:s' for the
--          sequence of shard s of a model sharded n ways: its k-th id is (k - 1) * n + s + 1, so that every shard
--          draws distinct numbers from its own sequence and an id names its shard ((id - 1) mod n)
-- ARGV[11] n; then n field, value pairs to set (HSET)
-- then     m; then m fields to remove (HDEL)
-- then     k; then k index specs (kind, attribute, scope, numeric: see indexes.lua): every index on create,
--          the indexes touching the changed fields on update
-- then     p; then p pairs (foreign key field, the parent model's object key prefix `<parentBase>:obj:`): a new
--          value of such a field must name a live parent object
-- then     q; then q index specs: every index for a capped model (an object the trim evicts without a memo has
--          its entries found from its stored values) and for an update given a time to live (its memo is
--          written from them), else 0
-- Returns: the id; false when updating an object that does not exist or has expired (it is never revived;
--          an expired one is swept) or creating an id that exists; {'unique', attribute} when a unique value
--          belongs to another live object; {'stale'} when the stored version is not the one the client read;
--          {'relation', field} when a foreign key names a missing parent.
-- Guarantees: all checks run before the first write, so a refused save writes nothing; the hash, its `all`
-- entry and every index and unique entry change together (invariants 1 to 5); index entries are computed from
-- the values stored before and after the write, not from the client's copy. Saving keeps the object's TTL
-- unless ARGV[3] gives one, which is set in the same script.
-- A capped model is trimmed back to its top objects in the same script (a cap per value: the object's group).
--!include key-types.lua
--!include spec-lists.lua
--!include indexes.lua
--!include objects.lua
--!include pages.lua
--!include caps.lua
--!include sequence-ids.lua
--!include save-context.lua
--!include save-object.lua
--!include update-indexed.lua

local model = saveContext(KEYS[1], KEYS[2], KEYS[3], ARGV[3], ARGV[4], ARGV[5], ARGV[7], ARGV[8], ARGV[9], ARGV[10])
local setFrom, setCount, delFrom, delCount, specs, fields, parentsFrom = readChange(model, 11)
if ARGV[1] == 'u' then
  if model.ttl then
    -- an update given a time to live (an expirable model: never updateIndexed's) rewrites the memo
    expectType(KEYS[3] .. ':memo:' .. ARGV[2], 'hash')
    local saved = saveObject(model, 'u', ARGV[2], ARGV[6], setFrom, setCount, delFrom, delCount, specs, fields, parentsFrom)
    if type(saved) == 'string' then
      expireWritten(KEYS[3], saved, model.ttl, model.capSpecs, model.capFields)
    end
    return saved
  end
  local updated = updateIndexed(model, ARGV[2], setFrom, setCount, delFrom, delCount, specs, fields, parentsFrom)
  if updated then
    return updated
  end
end
return saveObject(model, ARGV[1], ARGV[2], ARGV[6], setFrom, setCount, delFrom, delCount, specs, fields, parentsFrom)
