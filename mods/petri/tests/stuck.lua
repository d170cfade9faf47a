-- The rule of hooks/stuck.lua: a culture that cannot move when its turn starts leaves every
-- empty cell to the other culture, which fills the dish and ends the game.

local game, picture, moves = helpers.game, helpers.picture, helpers.moves

test("a culture that cannot move when its turn starts leaves every empty cell to the other", function()
  -- Purple's only cell, A00, is cut off by the gap at B00.
  local g = game{ "2#1.." }
  g:act{ action = "grow", from = "C00", to = "D00" }
  expect_eq(picture(g), { "2#111" }, "E00 went to Green")
  expect_eq(g:outcome(), { result = "win", seats = { 1 } })
end)

test("the stuck culture still wins when it holds more of the full dish", function()
  local g = game{ "2222#1.." }
  g:act{ action = "grow", from = "F00", to = "G00" }
  expect_eq(picture(g), { "2222#111" })
  expect_eq(g:outcome(), { result = "win", seats = { 2 } })
end)

test("cells handed over that split the dish half and half make a draw at once", function()
  local g = game{ "222#1.." }
  g:act{ action = "grow", from = "E00", to = "F00" }
  expect_eq(picture(g), { "222#111" })
  expect_eq(g:outcome().result, "draw")
  expect_eq(g:turn(), 2, "decided when Purple's turn started")
end)

test("a culture that can still jump is not stuck", function()
  local g = game{
    "211.",
    "11..",
  }
  g:act{ action = "grow", from = "C00", to = "D00" }
  expect_eq(g:over(), false)
  expect_eq(g:current_seat(), 2)
  expect_eq(moves(g, "grow"), {})
  expect_eq(moves(g, "jump"), { "A00>C01" })
  expect_eq(picture(g), { "2111", "11.." }, "no cell was handed over")
end)

test("Green stuck at its very first turn: the game ends before any move", function()
  local g = game{ "1#2.." }
  expect_eq(picture(g), { "1#222" })
  expect_eq(g:outcome(), { result = "win", seats = { 2 } })
end)
