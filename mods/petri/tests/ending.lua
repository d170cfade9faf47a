-- The end of the game: a full dish is won by the culture on more than half of it (an even
-- split is a draw), a culture with no cell left loses at once, and after 300 turns the culture
-- on more cells wins.

local game, picture = helpers.game, helpers.picture

test("the move that fills the dish ends the game: more than half of it wins", function()
  local g = game{ "1.222" }
  g:act{ action = "grow", from = "A00", to = "B00" } -- takes C00: 3 cells to 2
  expect_eq(picture(g), { "11122" })
  expect_eq(g:outcome(), { result = "win", seats = { 1 } })
end)

test("filling the dish can lose: the mover has fewer cells", function()
  local g = game{ "1.#2222" }
  g:act{ action = "grow", from = "A00", to = "B00" }
  expect_eq(g:outcome(), { result = "win", seats = { 2 } })
end)

test("a dish filled half and half is a draw", function()
  local g = game{ "1.2#222" }
  g:act{ action = "grow", from = "A00", to = "B00" } -- takes C00: 3 cells each
  expect_eq(picture(g), { "111#222" })
  expect_eq(g:outcome().result, "draw")
end)

test("a dish with empty cells left goes on, even with more than half of it taken", function()
  local g = game{ "11.2.2" }
  g:act{ action = "grow", from = "B00", to = "C00" } -- takes D00: 4 cells of 6
  expect_eq(picture(g), { "1111.2" })
  expect_eq(g:over(), false)
  expect_eq(g:current_seat(), 2)
end)

test("a culture with no cell left loses at once, with empty cells left", function()
  local g = game{ "1.2.." }
  g:act{ action = "grow", from = "A00", to = "B00" }
  expect_eq(picture(g), { "111.." })
  expect_eq(g:seat_status(2), "eliminated")
  expect_eq(g:outcome(), { result = "win", seats = { 1 } })
end)

test("after 300 turns the culture on more cells wins", function()
  local g = game{ "1...222" }
  g:set_turn(1, 299)
  g:act{ action = "grow", from = "A00", to = "B00" }
  expect_eq(g:over(), false, "turn 300 is still played")
  expect_eq(g:turn(), 300)
  g:act{ action = "grow", from = "E00", to = "D00" }
  expect_eq(g:outcome(), { result = "win", seats = { 2 } }, "4 cells to 2")
  g = game{ "111...2" }
  g:set_turn(2, 300)
  g:act{ action = "grow", from = "G00", to = "F00" }
  expect_eq(g:outcome(), { result = "win", seats = { 1 } }, "3 cells to 2")
  g = game{ "11...2" }
  g:set_turn(2, 300)
  g:act{ action = "grow", from = "F00", to = "E00" }
  expect_eq(g:outcome().result, "draw", "2 cells each")
end)
