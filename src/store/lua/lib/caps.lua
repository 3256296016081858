-- caps.lua: keeping a capped model to its top `keep` objects; a library inlined into save.lua and
-- increment.lua. Needs indexes.lua, objects.lua and pages.lua before it.
-- KEYS/ARGV: none of its own.
-- The kept objects are exactly the first `keep` of the cap index read in query order (desc: highest score
-- first; asc: lowest first; ties by id as in pages.lua), so ranks shown by a query and the cap agree.
-- Every evicted object is deleted whole (objects.lua's purgeObject): its entries are read from its memo (only
-- those that can be its own), or, for an object without one (written before the model had a cap), found from
-- its stored values with `specs` and `fields` (readSpecs of every index of the model).

local function trimCap(base, all, capKey, keep, keepLowest, numeric, specs, fields)
  local excess = redis.call('ZCARD', capKey) - keep
  if excess <= 0 then
    return 0
  end
  -- objects whose time has come are invisible and take no slot: swept first (an `exp` exists only for an
  -- expirable model), so that no live object is evicted in their place
  if sweepDue(base, all, -1) > 0 then
    excess = redis.call('ZCARD', capKey) - keep
    if excess <= 0 then
      return 0
    end
  end
  -- The victims are the first `excess` objects in the opposite order.
  -- A victim with a key of another type is left as it is (purgeObject's `orLeave`): it stays, over the cap,
  -- until repair() settles the key that check() names; the write that trims has been made already.
  local victims = pageByScore(capKey, '-inf', '+inf', keepLowest, 0, excess, numeric)
  local evicted = 0
  for _, id in ipairs(victims) do
    if purgeObject(base, all, id, specs, fields, true) then
      redis.call('ZREM', capKey, id)
      evicted = evicted + 1
    end
  end
  return evicted
end
