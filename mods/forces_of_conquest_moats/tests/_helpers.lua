-- Helpers shared by the test files (files named `_*.lua` are loaded before each test file).
--
-- Two Shores (the map for two) around seat 1's base A00, with the lake's shore at F03/G03 and
-- F04/G04 (`s` shallow water, `d` deep):
--
--        A B C D E F G H
--    00  1 1 1 p f f m p
--    01  1 1 1 p f p p p
--    02  1 1 1 p p f p p
--    03  p f f p p p s s
--    04  p m p p f p s d
--    05  f p n p p p s d
--
-- The flag is each seat's first piece: seat 1's is piece 1, seat 2's piece 2.

-- A two-player game on Two Shores with both bases founded (A00 and L11), at the start of seat
-- 1's main stage, every resource set to `stock` (default 0) and no wild rogue army appearing.
function helpers.game(options)
  options = options or {}
  local g = scenario.new{ seed = options.seed or 1, seats = 2 }
  g:act{ action = "found_base", at = "A00" }
  g:act{ action = "found_base", at = "L11" }
  g:set_var("wild_chance", 0)
  for seat = 1, 2 do helpers.stock(g, seat, options.stock or 0) end
  return g
end

-- Sets each of a seat's four resources to `amount`.
function helpers.stock(g, seat, amount)
  for _, resource in ipairs({ "food", "wood", "stone", "metal" }) do g:set_resource(seat, resource, amount) end
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

-- The values an action offers for its parameter `param` among the legal actions (those
-- `where` accepts), as sorted strings.
function helpers.offered(g, action, param, where)
  local out = {}
  for _, record in ipairs(g:legal()) do
    if record.action == action and (where == nil or where(record)) then out[#out + 1] = tostring(record[param]) end
  end
  table.sort(out)
  return out
end

-- Whether `army` may move to `to` now.
function helpers.reaches(g, army, to)
  return #helpers.offered(g, "move", "to", function(r) return r.army == army and r.to == to end) == 1
end

-- The fewest movement points with which an army of `units` for `seat` on `from` reaches `to`
-- (up to 10), or nil when it cannot.
function helpers.price(g, seat, from, to, units)
  local army = helpers.army(g, seat, from, units, 0)
  local found
  for mp = 1, 10 do
    g:set_stat(army, "mp_left", mp)
    if helpers.reaches(g, army, to) then
      found = mp
      break
    end
  end
  g:remove(army)
  return found
end

-- The piece standing between two neighbouring territories, from the state (nil when none; the
-- units standing in it share its place, but are inside it).
function helpers.between(g, a, b)
  for _, piece in ipairs(g:state().pieces) do
    local spaces = { piece.space, piece.across }
    local there = (spaces[1] == a and spaces[2] == b) or (spaces[1] == b and spaces[2] == a)
    if there and piece.inside == nil then return piece.piece end
  end
end

-- The kind of a piece, from the state.
function helpers.kind(g, piece)
  for _, p in ipairs(g:state().pieces) do
    if p.piece == piece then return p.kind end
  end
end

-- A moat on `at` for seat 1 as the rules leave one: the territory is seat 1's, one of its
-- walls stands between `at` and `beside`, and the moat is dug (by the action, from a barren
-- territory). Gives the wall's piece id.
function helpers.moat(g, at, beside)
  g:set_owner(at, 1)
  local wall = g:place_between("wooden_wall", 1, at, beside)
  g:set_counter(at, "barren_until", g:turn() + 6)
  local food = g:resource(1, "food")
  g:set_resource(1, "food", 10)
  g:act{ action = "dig_moat", at = at }
  g:set_resource(1, "food", food)
  return wall
end

-- Expects `g:try(record)` to be refused, and gives the reason.
function helpers.refused(g, record, message)
  local ok, reason = g:try(record)
  expect_eq(ok, false, message)
  return reason
end
