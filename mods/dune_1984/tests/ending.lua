-- The last house with a character wins; computer players finish their games.

local h = helpers

test("a house with no character left is out; the last house standing wins", function()
  local g = h.game()
  for _, piece in ipairs{ 4, 5, 6, 7, 8, 9, 10, 11 } do g:remove(piece) end
  g:set_stat(h.RABBAN, "strength", 1)
  g:move_piece(h.RABBAN, "D4")
  h.roll(g, 4, 6)
  g:act{ action = "move_first", who = h.GURNEY, to = "D4" }
  g:act{ seat = 4, action = "pass" }
  g:act{ action = "keep_die" }
  g:force_dice{ 6, 1, 1, 1, 1, 1 }
  g:act{ action = "fight", who = h.GURNEY, foe = 4 }
  h.answer(g, 4, { action = "wound", winner = 1, victim = h.RABBAN })
  expect_eq(g:outcome(), { result = "win", seats = { 1 } })
end)

test("medium players finish four-house and three-house games, and the games replay", function()
  for _, case in ipairs{ { seed = 3, seats = 4 }, { seed = 4, seats = 3 } } do
    local g = scenario.new{ seed = case.seed, seats = case.seats }
    g:play("medium", 5000)
    expect(g:over(), "seed " .. case.seed .. ": the game finished")
    expect_eq(g:outcome().result, "win")
    expect_eq(g:replay_hash(), g:hash())
  end
end)

test("easy players finish too", function()
  local g = scenario.new{ seed = 5, seats = 4 }
  g:play("easy", 20000)
  expect(g:over(), "the game finished")
end)
