-- caps.lua: keeping a capped model to its top `keep` objects, or with a cap per value (`per`), each group of
-- objects holding one value of `per` to its top `keep`; a library inlined into save.lua, save-many.lua,
-- update-many.lua and increment.lua. Needs indexes.lua, objects.lua and pages.lua before it.
-- KEYS/ARGV: none of its own. A cap per value trims the scoped index of `by` per `per` (indexes.lua's sortedKey:
-- `<base>:idx:<by>@<per>:<value>`), one group at a time: the group of the object a write moved.
-- The kept objects are exactly the first `keep` of the cap index read in query order (desc: highest score
-- first; asc: lowest first; ties by id as in pages.lua), so ranks shown by a query and the cap agree.
-- Every evicted object is deleted whole (objects.lua's purgeObject): its entries are read from its memo (only
-- those that can be its own), or, for an object without one (written before the model had a cap), found from
-- its stored values with `specs` and `fields` (readSpecs of every index of the model).

-- Reads the cap a script is given into `target`: `capKey`, the cap's index key ('' none), or for a cap per value
-- the stem its groups' keys add ':<value>' to; `capOrder`, 'asc' | 'desc', followed for a cap per value by '@',
-- the field of `per` and '#' when it holds numbers (model-args.ts's capOrderOf: 'desc@userId'). Sets capKey,
-- capKeepLowest, capPer (nil for a cap of the whole model) and capPerNumeric.
local function readCap(target, capKey, capOrder)
  local order, per, numeric = string.match(capOrder, '^(%a+)@([%w_$]+)(#?)$')
  target.capKey = capKey
  target.capKeepLowest = (order or capOrder) == 'asc'
  target.capPer = per
  target.capPerNumeric = numeric == '#'
  return target
end

-- The index key the cap trims after a write of an object whose values after it are `values` (field -> value,
-- false when absent, nil when not read): the cap's key, or for a cap per value the key of the object's group,
-- as sortedKey names it; nil when the object has no value of `per` (in no group: not capped) or the write did not
-- read it (it moved no entry of a group). `cap` is what readCap set.
local function capGroupKey(cap, values)
  if not cap.capPer then
    return cap.capKey
  end
  local value = values[cap.capPer]
  if not value then
    return nil
  end
  return cap.capKey .. ':' .. canonical(value, cap.capPerNumeric)
end

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
