-- The dish and the first cells: the round dish of 69 cells, each culture on two cells six
-- steps apart, Green to move first.

local picture = helpers.picture

test("the dish is round: 69 cells on a 9 x 9 grid without its corners", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  expect_eq(g:space_count(), 69)
  expect_eq(picture(g), {
    "##.....##",
    "#1.....2#",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    "#2.....1#",
    "##.....##",
  })
end)

test("Green moves first", function()
  local g = scenario.new{ seed = 7, seats = 2 }
  expect_eq(g:current_seat(), 1)
  expect_eq(g:turn(), 1)
end)

test("every cell touches its eight neighbours, diagonals included", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  local near = g:neighbors("E04")
  table.sort(near)
  expect_eq(near, { "D03", "D04", "D05", "E03", "E05", "F03", "F04", "F05" })
  -- a cell on the rim touches only the cells that exist
  near = g:neighbors("C00")
  table.sort(near)
  expect_eq(near, { "B01", "C01", "D00", "D01" })
end)

test("every game starts the same: the dish has no randomness", function()
  local a, b = scenario.new{ seed = 1, seats = 2 }, scenario.new{ seed = 99, seats = 2 }
  expect_eq(picture(a), picture(b))
end)
