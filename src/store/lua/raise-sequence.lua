-- raise-sequence.lua: raise a model's id sequence to at least the largest id in use.
-- KEYS[1]  the model's `seq` (a shard's, for a sharded model);  ARGV[1] how many values it must have drawn:
--          the largest sequence id found, or for a shard of a model sharded n ways that id's draw in its shard
-- Returns: the sequence's value afterwards.
-- Guarantees: never lowers it (invariant 5: ids are never reused); the same raise repair-object.lua makes when it
-- lists a hash again (sequence-ids.lua's raiseSequence).
--!include key-types.lua
--!include sequence-ids.lua

return raiseSequence(KEYS[1], tonumber(ARGV[1]))
