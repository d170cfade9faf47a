-- Jumping: a culture moves one of its cells to an empty cell exactly two steps away (the cell
-- it leaves becomes empty) and takes every enemy cell touching the new one.

local game, picture, moves, refused = helpers.game, helpers.picture, helpers.moves, helpers.refused

test("a jump leaves its cell empty and takes the enemy cells touching where it lands", function()
  local g = game{
    "1....",
    "...2.",
    "..2..",
    ".2...",
  }
  g:act{ action = "jump", from = "A00", to = "C01" }
  expect_eq(picture(g), {
    ".....",
    "..11.",
    "..1..",
    ".2...",
  })
end)

test("a culture can jump to every empty cell exactly two steps away, diagonals included", function()
  local g = game{
    ".....",
    ".....",
    "..1..",
    ".....",
    "....2",
  }
  expect_eq(moves(g, "jump"), {
    "C02>A00", "C02>A01", "C02>A02", "C02>A03", "C02>A04", "C02>B00", "C02>B04",
    "C02>C00", "C02>C04", "C02>D00", "C02>D04", "C02>E00", "C02>E01", "C02>E02", "C02>E03",
  })
end)

test("a jump one step or three steps away, or onto a taken cell, is refused", function()
  local g = game{
    "1.2...",
    "......",
    "......",
  }
  refused(g, { action = "jump", from = "A00", to = "B01" }, "one step")
  refused(g, { action = "jump", from = "A00", to = "D00" }, "three steps")
  refused(g, { action = "jump", from = "A00", to = "C00" }, "onto an enemy cell")
end)

test("steps are counted over cells of the dish: no jumping across a gap", function()
  -- A00 and C00 are two columns apart, but the gap at B00 and B01 leaves no path of two steps.
  local g = game{
    "1#..",
    ".#..",
    "...2",
  }
  refused(g, { action = "jump", from = "A00", to = "C00" }, "across the gap")
  expect_eq(moves(g, "jump"), { "A00>A02", "A00>B02" })
end)
