-- Helpers shared by the test files (files named `_*.lua` are loaded before each test file).
--
-- On Two Shores (the map for two), seat 1's base range is A00-C02 and seat 2's J09-L11. The
-- flag is each seat's first piece: seat 1's is piece 1, seat 2's piece 2.

-- A two-player game on Two Shores with both bases founded (A00 and L11 unless given), at the
-- start of seat 1's main stage, every resource set to `stock` (default 0).
function helpers.game(options)
  options = options or {}
  local g = scenario.new{ seed = options.seed or 1, seats = options.seats or 2 }
  g:act{ action = "found_base", at = options.first or "A00" }
  g:act{ action = "found_base", at = options.second or "L11" }
  -- No wild rogue appears unless a test asks (its draw would take a forced number).
  g:set_var("wild_chance", options.wild_chance or 0)
  local stock = options.stock or 0
  for seat = 1, options.seats or 2 do
    for _, resource in ipairs({ "food", "wood", "stone", "metal" }) do g:set_resource(seat, resource, stock) end
  end
  return g
end

-- Puts an army of `units` (a list of kinds) for `seat` (nil: nobody's) on `at`, with movement
-- points `mp` (default 0); gives the army's piece id and its units' ids.
function helpers.army(g, seat, at, units, mp)
  local army = g:place("army", seat, at)
  local ids = {}
  for _, kind in ipairs(units) do
    local unit = g:place(kind, seat, at)
    g:set_inside(unit, army)
    ids[#ids + 1] = unit
  end
  g:set_stat(army, "mp_left", mp or 0)
  return army, ids
end

-- The labels an action offers for its parameter `param` among the legal actions, sorted.
function helpers.offered(g, action, param, where)
  local out = {}
  for _, record in ipairs(g:legal()) do
    if record.action == action and (where == nil or where(record)) then out[#out + 1] = tostring(record[param]) end
  end
  table.sort(out)
  return out
end

-- The phase the game is in.
function helpers.phase(g)
  return g:state().phase
end
