-- Growing: a culture takes an empty cell touching one of its cells (diagonals count), keeps the
-- cell it grew from, and takes every enemy cell touching the new one.

local game, picture, moves, refused = helpers.game, helpers.picture, helpers.moves, helpers.refused

test("growing takes the empty cell and keeps the cell grown from", function()
  local g = game{
    "1....",
    ".....",
    "....2",
  }
  g:act{ action = "grow", from = "A00", to = "B01" }
  expect_eq(picture(g), {
    "1....",
    ".1...",
    "....2",
  })
end)

test("every enemy cell touching the new cell becomes the grower's, diagonals included", function()
  local g = game{
    "...22",
    "221..",
    "2.2..",
    "222..",
  }
  g:act{ action = "grow", from = "C01", to = "B02" }
  expect_eq(picture(g), {
    "...22",
    "111..",
    "111..",
    "111..",
  }, "the eight neighbours of B02 change; D00, two steps away, does not")
end)

test("only enemy cells change: the grower's own cells and empty cells stay as they are", function()
  local g = game{
    "11...",
    "1.2..",
    "...2.",
  }
  g:act{ action = "grow", from = "A00", to = "B01" }
  expect_eq(picture(g), {
    "11...",
    "111..",
    "...2.",
  })
end)

test("a culture can grow into every empty cell touching its cells, and nowhere else", function()
  local g = game{
    "#....",
    ".1...",
    "..2..",
    ".....",
  }
  expect_eq(moves(g, "grow"), { "B01>A01", "B01>A02", "B01>B00", "B01>B02", "B01>C00", "B01>C01" })
end)

test("growing into a taken cell, a cell two steps away or from an enemy cell is refused", function()
  local g = game{
    "1.2..",
    ".....",
    "....2",
  }
  refused(g, { action = "grow", from = "A00", to = "C00" }, "two steps away")
  g = game{
    "12...",
    ".....",
    "....2",
  }
  refused(g, { action = "grow", from = "A00", to = "B00" }, "a taken cell")
  refused(g, { action = "grow", from = "B00", to = "C00" }, "from the enemy's cell")
end)
