-- Scenario tests, run by `meeple test`: each starts a game, arranges a position, acts, and
-- checks the result. These use a small fixed board instead of a random map: five territories
-- in a line, a - b - c - d - e.
local board = {
  kind = "graph", terrain = "land",
  spaces = { { id = "a" }, { id = "b" }, { id = "c" }, { id = "d" }, { id = "e" } },
  links = { { "a", "b" }, { "b", "c" }, { "c", "d" }, { "d", "e" } },
}

-- A game on the line with owners and troops as given ({ a = { seat, troops }, ... }) and seat 1
-- to move.
local function arrange(layout)
  local g = scenario.new{ seed = 1, seats = 2, board = board }
  for label, v in pairs(layout) do
    g:set_owner(label, v[1])
    g:set_counter(label, "troops", v[2])
  end
  g:set_resource(1, "supply", 0)
  g:set_resource(2, "supply", 0)
  g:set_turn(1)
  return g
end

test("a won attack moves every troop but one", function()
  local g = arrange{ a = { 1, 4 }, b = { 2, 2 }, c = { 2, 1 }, d = { 2, 1 }, e = { 2, 1 } }
  g:force_dice{ 6, 6, 6, 6, 1, 1 } -- 24 against 2
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(g:owner("b"), 1)
  expect_eq(g:counter("b", "troops"), 3)
  expect_eq(g:counter("a", "troops"), 1)
end)

test("a tie goes to the defender", function()
  -- e can still attack d afterwards, so the turn does not end by itself.
  local g = arrange{ a = { 1, 4 }, b = { 2, 2 }, c = { 2, 1 }, d = { 2, 1 }, e = { 1, 2 } }
  g:force_dice{ 1, 1, 1, 1, 2, 2 } -- 4 against 4
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(g:owner("b"), 2)
  expect_eq(g:counter("b", "troops"), 2)
  expect_eq(g:counter("a", "troops"), 1)
  local ok = g:try{ action = "attack", from = "a", to = "b" }
  expect_eq(ok, false, "one troop cannot attack")
end)

test("ending the turn brings one troop per two territories of the largest group", function()
  -- e can attack, so the second seat's turn does not end by itself.
  local g = arrange{ a = { 1, 1 }, b = { 1, 1 }, c = { 1, 1 }, d = { 1, 1 }, e = { 2, 6 } }
  g:pass()
  expect_eq(g:current_seat(), 2)
  local total = 0
  for _, label in ipairs{ "a", "b", "c", "d" } do total = total + g:counter(label, "troops") end
  expect_eq(total, 4 + 2, "a group of four brings two")
  expect_eq(g:resource(1, "supply"), 0, "every new troop found room")
end)
