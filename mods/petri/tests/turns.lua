-- Turns: one move a turn, the cultures in turn, and no passing while a move exists.

local game, picture = helpers.game, helpers.picture

test("each move ends the turn: Green, Purple, Green, ...", function()
  local g = game{
    "1....",
    ".....",
    "....2",
  }
  g:act{ action = "grow", from = "A00", to = "B00" }
  expect_eq(g:current_seat(), 2)
  expect_eq(g:turn(), 2)
  g:act{ action = "jump", from = "E02", to = "C02" }
  expect_eq(g:current_seat(), 1)
  expect_eq(g:turn(), 3)
  local ok = g:try{ action = "grow", from = "C02", to = "D02" }
  expect_eq(ok, false, "Purple cannot move in Green's turn")
end)

test("a culture that can move must: passing is refused", function()
  local g = game{
    "1....",
    ".....",
    "....2",
  }
  local ok = g:try{ action = "pass" }
  expect_eq(ok, false)
  expect_eq(g:current_seat(), 1)
  for _, record in ipairs(g:legal()) do
    expect(record.action ~= "pass", "pass is not offered")
  end
end)

test("the board keeps what happened: a position played out move by move", function()
  local g = game{
    "1...",
    "....",
    "...2",
  }
  g:act{ action = "grow", from = "A00", to = "B01" }
  g:act{ action = "jump", from = "D02", to = "C00" } -- lands next to B01 and takes it
  expect_eq(picture(g), {
    "1.2.",
    ".2..",
    "....",
  })
  g:act{ action = "grow", from = "A00", to = "B00" } -- takes B01 and C00 back
  expect_eq(picture(g), {
    "111.",
    ".1..",
    "....",
  })
  expect_eq(g:over(), true, "Purple has no cell left")
end)
