-- Scenario tests, run by `meeple test`: each starts a game, arranges a position, acts, and
-- checks the result. Pieces are numbered from 1 in the order they were placed: the first seat's
-- runners on A00, C00, E00 are 1 to 3, the second seat's on B05, D05, F05 are 4 to 6.

test("the game starts with three runners a side on the home rows", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  expect_eq({ g:piece_space(1), g:piece_space(2), g:piece_space(3) }, { "A00", "C00", "E00" })
  expect_eq({ g:piece_space(4), g:piece_space(5), g:piece_space(6) }, { "B05", "D05", "F05" })
  expect_eq(g:current_seat(), 1)
end)

test("a step moves a runner and ends the turn", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  g:act{ action = "step", runner = 1, to = "A01" }
  expect_eq(g:piece_space(1), "A01")
  expect_eq(g:current_seat(), 2, "one step a turn: the turn passed by itself")
  local ok, reason = g:try{ action = "step", runner = 4, to = "A05" }
  expect_eq(ok, true, reason)
end)

test("stepping onto an enemy runner captures it; on a hill it is worth two", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  g:move_piece(1, "C01")
  g:move_piece(4, "C02") -- C02 is a hill
  g:act{ action = "step", runner = 1, to = "C02" }
  expect_eq(g:alive(4), false)
  expect_eq(g:resource(1, "points"), 2)
  local ok = g:try{ action = "step", runner = 2, to = "A00" }
  expect_eq(ok, false, "not the first seat's turn any more")
end)
