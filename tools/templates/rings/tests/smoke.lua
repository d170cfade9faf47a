-- Scenario tests, run by `meeple test`: each starts a game, arranges a position, acts, and
-- checks the result. Piece 1 is the first seat's walker, piece 2 the second seat's.

-- The spaces a walk may stop at after the roll, sorted.
local function stops(g)
  local found = {}
  for _, a in ipairs(g:legal()) do
    if a.action == "walk" and a.to then found[#found + 1] = a.to end
  end
  table.sort(found)
  return found
end

test("a walk stops up to the roll ahead, never behind", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  expect_eq(g:piece_space(1), "track 0")
  g:force_dice{ 3 }
  g:act{ action = "walk" }
  expect_eq(g:awaiting(), "walk", "the die is rolled; the stop is still to choose")
  expect_eq(stops(g), { "track 1", "track 2", "track 3" })
  g:act{ action = "walk", to = "track 3" }
  expect_eq(g:piece_space(1), "track 3")
  expect_eq(g:resource(1, "points"), 1)
  expect_eq(g:current_seat(), 2, "one walk a turn")
end)

test("stopping on a star scores three", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  g:move_piece(1, "track 1")
  g:force_dice{ 5 }
  g:act{ action = "walk" }
  g:act{ action = "walk", to = "track 4" }
  expect_eq(g:resource(1, "points"), 3)
end)

test("a pit costs two points, but points never go below zero", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  g:move_piece(1, "track 6")
  g:set_resource(1, "points", 1)
  g:force_dice{ 2 }
  g:act{ action = "walk" }
  g:act{ action = "walk", to = "track 8" }
  expect_eq(g:resource(1, "points"), 0)
end)

test("the computer player stops where the hook scores most", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  g:move_piece(1, "track 1")
  g:force_dice{ 5 }
  g:act{ action = "walk" }
  -- Tracks 2 to 6 can be reached; track 4 is a star, worth 3.
  g:play("medium", 1)
  expect_eq(g:piece_space(1), "track 4")
  expect_eq(g:resource(1, "points"), 3)
end)
