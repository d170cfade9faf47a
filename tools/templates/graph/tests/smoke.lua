-- Scenario tests, run by `meeple test`: each starts a game, arranges a position, acts, and
-- checks the result. Who moves first is drawn at random, so the tests that act give the turn to
-- seat 1 with `g:set_turn(1)`.

test("each seat starts with its home town; the first turn brings its income", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  expect_eq(g:owner("harbor"), 1)
  expect_eq(g:owner("castle"), 2)
  expect_eq(g:owned(1), 1)
  local first = g:current_seat()
  expect_eq(g:resource(first, "influence"), 2, "1, plus 1 for the home city")
  expect_eq(g:resource(3 - first, "influence"), 0, "the other seat has not had a turn")
end)

test("a claim takes a free town on a road from one of yours, for 2 influence", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  g:set_turn(1)
  g:set_resource(1, "influence", 3)
  local ok, reason = g:try{ action = "claim", from = "harbor", to = "mill" }
  expect_eq(ok, false, "no road from the harbor to the mill")
  ---@cast reason -nil
  expect(reason:find("not adjacent", 1, true), reason)
  g:act{ action = "claim", from = "harbor", to = "ford" }
  expect_eq(g:owner("ford"), 1)
  expect_eq(g:resource(1, "influence"), 1)
  local again, why = g:try{ action = "claim", from = "ford", to = "mill" }
  expect_eq(again, false, "1 influence is not enough")
  ---@cast why -nil
  expect(why:find("condition", 1, true), why)
end)

test("a favour is drawn for 1 influence and played for 3", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  g:set_turn(1)
  g:set_resource(1, "influence", 1)
  expect_eq(g:try{ action = "play_favour" }, false, "no favour in hand yet")
  g:act{ action = "draw" }
  expect_eq(g:resource(1, "influence"), 0)
  g:act{ action = "play_favour" }
  expect_eq(g:resource(1, "influence"), 3)
end)
