-- Determinism: the same seed and the same computer play give the same game, and a game
-- played only through actions replays to the same state hash.

local function play_out(seed, seats, level, limit)
  local g = scenario.new{ seed = seed, seats = seats }
  g:play(level, limit)
  return g
end

test("same seed, same greedy play: same hash and same events", function()
  for _, case in ipairs{ { 1, 2 }, { 7, 4 }, { 13, 8 } } do
    local a = play_out(case[1], case[2], "greedy")
    local b = play_out(case[1], case[2], "greedy")
    expect(a:over(), "seed " .. case[1] .. " did not finish")
    expect_eq(a:hash(), b:hash(), "seed " .. case[1])
    expect_eq(a:outcome(), b:outcome())
    expect_eq(#a:events(true), #b:events(true))
    expect_eq(a:events(true), b:events(true))
  end
end)

test("same seed, same random play: same hash", function()
  local a = play_out(5, 3, "random", 500)
  local b = play_out(5, 3, "random", 500)
  expect_eq(a:hash(), b:hash())
  expect_eq(a:state(), b:state())
end)

test("a different seed gives a different game", function()
  local a = play_out(1, 4, "greedy", 200)
  local b = play_out(2, 4, "greedy", 200)
  expect(a:hash() ~= b:hash(), "seeds 1 and 2 played the same game")
end)

test("replaying the recorded actions gives the same hash (greedy, whole games)", function()
  for _, case in ipairs{ { 3, 2 }, { 4, 5 }, { 9, 7 } } do
    local g = play_out(case[1], case[2], "greedy")
    expect(g:over())
    expect_eq(g:replay_hash(), g:hash(), "seed " .. case[1] .. ", " .. case[2] .. " seats")
  end
end)

test("replaying the recorded actions gives the same hash (random, part of a game)", function()
  local g = play_out(11, 6, "random", 400)
  expect_eq(g:replay_hash(), g:hash())
end)

test("replaying includes hand-made actions: attacks, passes and leaving", function()
  local g = scenario.new{ seed = 17, seats = 3 }
  local attack ---@type meeple.ActionRecord?
  for _, a in ipairs(g:legal()) do
    if a.action == "attack" and not attack then attack = a end
  end
  expect(attack ~= nil, "seat 1 has an attack")
  ---@cast attack -nil
  g:act{ action = "attack", from = attack.from, to = attack.to }
  g:act{ action = "leave", seat = 3 }
  g:pass()
  g:play("greedy", 50)
  expect_eq(g:replay_hash(), g:hash())
end)

test("an arranged state does not replay: the replay really re-simulates", function()
  local g = scenario.new{ seed = 17, seats = 2 }
  g:play("greedy", 5)
  expect_eq(g:replay_hash(), g:hash())
  local label = g:labels()[1]
  g:set_counter(label, "dice", g:counter(label, "dice") == 8 and 7 or 8)
  expect(g:replay_hash() ~= g:hash(), "the arrangement went unnoticed")
end)
