-- Scenario tests, run by `meeple test`: each starts a game, arranges a position, acts, and
-- checks the result. These use a small fixed board instead of a random map:
--
--   A00 B00 C00 D00        (odd rows sit half a cell to the right)
--     A01 B01 C01 D01      C01 is a lake
local board = {
  kind = "offset", columns = 4, rows = 2,
  layout = { "mmmm", "mmlm" }, legend = { m = "meadow", l = "lake" },
}

-- A game on the small board where seat 1 holds A00 only and seat 2 holds D00 only.
local function fresh()
  local g = scenario.new{ seed = 1, seats = 2, board = board }
  for _, label in ipairs(g:labels()) do g:set_owner(label, nil) end
  g:set_owner("A00", 1)
  g:set_owner("D00", 2)
  g:set_turn(1)
  return g
end

test("a good roll claims the meadow", function()
  local g = fresh()
  expect_eq(g:chance{ action = "claim", from = "A00", to = "B00" }, 3 / 6, "4, 5 or 6: one space of mine is around B00")
  g:force_dice{ 4 }
  g:act{ action = "claim", from = "A00", to = "B00" }
  expect_eq(g:owner("B00"), 1)
  expect_eq(g:resource(1, "shore"), 0, "B00 does not touch the lake")
end)

test("a low roll fails and spends the claim; two claims end the turn", function()
  local g = fresh()
  g:force_dice{ 1, 1 }
  g:act{ action = "claim", from = "A00", to = "B00" }
  expect_eq(g:owner("B00"), nil)
  expect_eq(g:current_seat(), 1, "one claim is left")
  g:act{ action = "claim", from = "A00", to = "A01" }
  expect_eq(g:owner("A01"), nil)
  expect_eq(g:current_seat(), 2, "both claims spent: the turn passed by itself")
end)

test("a meadow on the lake shore scores a shore point; lakes cannot be claimed", function()
  local g = fresh()
  g:set_owner("B00", 1)
  local ok = g:try{ action = "claim", from = "B00", to = "C01" }
  expect_eq(ok, false, "C01 is a lake")
  g:force_dice{ 6 }
  g:act{ action = "claim", from = "B00", to = "B01" }
  expect_eq(g:owner("B01"), 1)
  expect_eq(g:resource(1, "shore"), 1)
end)
