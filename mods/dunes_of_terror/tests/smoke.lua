-- Whole games: computer players of every level finish, and a game replays to the same state.

test("medium players finish a game of eight characters, and it replays", function()
  local g = scenario.new{ seed = 3, seats = 8 }
  g:play("medium", 20000)
  expect(g:over(), "the game did not finish")
  local outcome = g:outcome()
  ---@cast outcome -nil
  expect(outcome.result == "win", "expected a side to win, got " .. tostring(outcome.result))
  expect_eq(g:replay_hash(), g:hash())
end)

test("easy players keep to the rules for 500 actions", function()
  local g = scenario.new{ seed = 4, seats = 4 }
  expect_eq(g:play("easy", 500), 500)
  expect_eq(g:replay_hash(), g:hash())
end)
