-- The end of a game: capturing every territory wins (then nothing more can be done); at a
-- table that started with 3 or more seats, once only two seats are still playing (the others
-- eliminated or grey) they have 50 more turns, then the game is drawn and the pot is split in
-- proportion to each one's largest connected group. No such limit at a table of two, and no
-- countdown while three or more still play.

local line, arrange, find = helpers.line, helpers.arrange, helpers.find

-- Passes until the game is over or `turn` is reached; fails if the game ends earlier.
local function pass_until(g, turn)
  while g:turn() < turn do
    expect_eq(g:over(), false, "game over before turn " .. turn .. " (at " .. g:turn() .. ")")
    g:pass()
  end
end

-- ----- victory -----

test("capturing every territory wins, and the game is over", function()
  local g = scenario.new{ seed = 1, seats = 2, board = line({ "a", "b", "c" }) }
  arrange(g, { a = { 1, 1 }, b = { 1, 5 }, c = { 2, 2 } }, 2)
  g:force_dice{ 6, 6, 6, 6, 6, 1, 1 }
  g:act{ action = "attack", from = "b", to = "c" }
  expect_eq(g:owned(1), 3)
  expect_eq(g:seat_status(2), "eliminated")
  expect_eq(g:over(), true)
  expect_eq(g:outcome(), { result = "win", seats = { 1 } })
  local ev = g:events()
  expect_eq(find(ev, function(e) return e.event == "game_over" end),
    { { event = "game_over", result = "win", seats = { 1 } } })
  expect_eq(find(ev, function(e) return e.event == "turn_ended" end), {}, "the game ends mid-turn")
end)

test("after the win every action is refused and nothing is legal", function()
  local g = scenario.new{ seed = 1, seats = 3, board = line({ "a", "b", "c", "d" }) }
  arrange(g, { a = { 1, 3 }, b = { 1, 5 }, c = { 2, 1 }, d = { 1, 2 } }, 3)
  g:set_status(3, "eliminated")
  g:force_dice{ 6, 6, 6, 6, 6, 1 }
  g:act{ action = "attack", from = "b", to = "c" }
  expect_eq(g:outcome(), { result = "win", seats = { 1 } })
  local hash = g:hash()
  for _, a in ipairs{
    { action = "attack", from = "c", to = "d" },
    { action = "pass" },
    { action = "leave" },
    { action = "leave", seat = 2 },
  } do
    local ok, reason = g:try(a)
    expect_eq(ok, false, a.action)
    ---@cast reason -nil
    expect(reason:find("over", 1, true) or reason:find("turn", 1, true), reason)
  end
  expect_error(function() g:pass() end, "refused")
  expect_eq(g:legal(), {})
  expect_eq(g:hash(), hash)
end)

test("the win needs every territory, grey ones included", function()
  local g = scenario.new{ seed = 1, seats = 3, board = line({ "a", "b", "c" }) }
  arrange(g, { a = { 1, 4 }, b = { 2, 1 }, c = { 3, 1 } }, 3)
  g:act{ action = "leave", seat = 3 }
  g:force_dice{ 6, 6, 6, 6, 1 }
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(g:seat_status(2), "eliminated")
  expect_eq(g:over(), false, "grey c still stands")
  g:force_dice{ 6, 6, 6, 1 }
  g:act{ action = "attack", from = "b", to = "c" }
  expect_eq(g:outcome(), { result = "win", seats = { 1 } })
end)

test("computer players finish a game with a single winner who holds the whole map", function()
  for _, seed in ipairs{ 1, 2, 3 } do
    local g = scenario.new{ seed = seed, seats = 2 }
    g:play("greedy", 20000)
    expect(g:over(), "seed " .. seed .. " not over")
    local o = g:outcome()
    ---@cast o meeple.Win
    expect_eq(o.result, "win", "seed " .. seed)
    expect_eq(#o.seats, 1)
    expect_eq(g:owned(o.seats[1]), g:space_count())
    local loser = 3 - o.seats[1]
    expect_eq(g:owned(loser), 0)
    expect_eq(g:seat_status(loser), "eliminated")
  end
end)

-- ----- the 50-turn rule -----

-- A line a b c | d e | f | g h (8 spaces), 3 seats. Seat 1: a b c and f (largest group 3);
-- seat 2: d e and g (largest group 2); seat 3: h. Everyone has 2+ dice on every border.
local eight = line({ "a", "b", "c", "d", "e", "f", "g", "h" })
local function fifty(seed)
  local g = scenario.new{ seed = seed or 1, seats = 3, board = eight }
  arrange(g, {
    a = { 1, 2 }, b = { 1, 2 }, c = { 1, 2 }, d = { 2, 2 }, e = { 2, 2 }, f = { 1, 2 }, g = { 2, 2 }, h = { 3, 1 },
  }, 3)
  return g
end

test("an elimination that leaves two players starts the countdown in that turn", function()
  local g = fifty()
  g:set_turn(1, 5)
  g:pass() -- seat 1 ends turn 5; h (seat 3's only territory) borders seat 2's g

  expect_eq(g:var("two_left_at"), 0, "three still playing")
  expect_eq(g:current_seat(), 2)
  expect_eq(g:turn(), 6)
  g:set_counter("g", "dice", 4)
  g:force_dice{ 6, 6, 6, 6, 1 }
  g:act{ action = "attack", from = "g", to = "h" }
  expect_eq(g:seat_status(3), "eliminated")
  expect_eq(g:var("two_left_at"), 6)
  expect_eq(g:over(), false)
end)

test("50 turns after the countdown starts the game is drawn, split by largest groups", function()
  local g = fifty()
  g:set_turn(2, 6)
  g:set_counter("g", "dice", 4)
  g:force_dice{ 6, 6, 6, 6, 1 }
  g:act{ action = "attack", from = "g", to = "h" } -- seat 3 out in turn 6
  expect_eq(g:var("two_left_at"), 6)
  -- groups now: seat 1 {a,b,c} 3 and {f} 1; seat 2 {d,e} 2 and {g,h} 2
  pass_until(g, 56)
  expect_eq(g:over(), false, "turn 56 has begun, the game is still on")
  expect_eq(g:current_seat(), 2)
  g:pass() -- the end of turn 56 = the 50th turn after turn 6
  expect_eq(g:over(), true)
  expect_eq(g:turn(), 56)
  local o = g:outcome()
  ---@cast o meeple.Draw
  expect_eq(o.result, "draw")
  expect_eq(#o.shares, 2)
  expect_eq({ o.shares[1].seat, o.shares[1].weight }, { 1, 3 })
  expect_eq({ o.shares[2].seat, o.shares[2].weight }, { 2, 2 })
  expect_near(o.shares[1].share, 0.6, 1e-12)
  expect_near(o.shares[2].share, 0.4, 1e-12)
  local ev = g:events()
  local over = find(ev, function(e) return e.event == "game_over" end)
  expect_eq(#over, 1)
  expect_eq(over[1].result, "draw")
  expect_eq(ev[#ev].event, "game_over", "nothing happens after the draw")
  expect_eq(find(ev, function(e) return e.event == "turn_started" end), {}, "no 57th turn")
end)

test("the draw counts 50 turns exactly: arranged with two_left_at", function()
  local g = fifty()
  g:set_owner("h", 2)
  g:set_status(3, "eliminated")
  g:set_var("two_left_at", 10)
  g:set_turn(1, 59)
  g:pass() -- end of turn 59: 49 turns after turn 10
  expect_eq(g:over(), false)
  expect_eq(g:turn(), 60)
  expect_eq(g:current_seat(), 2)
  g:pass() -- end of turn 60
  expect_eq(g:over(), true)
  local o = g:outcome()
  expect_eq(o, { result = "draw", shares = {
    { seat = 1, weight = 3, share = 0.6 },
    { seat = 2, weight = 2, share = 0.4 },
  } })
end)

test("draw shares follow the largest group, not the territory count", function()
  -- seat 1 holds more territories (11 to 9) but seat 2's share follows its groups
  local ids = {}
  for i = 1, 20 do ids[i] = "s" .. i end
  local g = scenario.new{ seed = 3, seats = 3, board = line(ids) }
  local layout = {}
  -- s1..s7 seat 1 (group 7); s8 seat 2; s9 seat 1; s10..s13 seat 2 (group 4); s14 seat 1;
  -- s15 seat 2; s16 seat 1; s17 seat 2; s18 seat 1; s19 seat 2; s20 seat 2 (group 2 with s19)
  local owner = { 1, 1, 1, 1, 1, 1, 1, 2, 1, 2, 2, 2, 2, 1, 2, 1, 2, 1, 2, 2 }
  for i, id in ipairs(ids) do layout[id] = { owner[i], 2 } end
  arrange(g, layout, 3)
  g:set_status(3, "eliminated")
  g:set_var("two_left_at", 1)
  g:set_turn(1, 51)
  g:pass()
  local o = g:outcome()
  ---@cast o meeple.Draw
  expect_eq(o.result, "draw")
  expect_eq(g:owned(1), 11)
  expect_eq(g:owned(2), 9)
  expect_eq({ o.shares[1].weight, o.shares[2].weight }, { 7, 4 })
  expect_near(o.shares[1].share, 7 / 11, 1e-12)
  expect_near(o.shares[2].share, 4 / 11, 1e-12)
end)

test("a player leaving so that two remain also starts the countdown; grey gets no share", function()
  local g = fifty()
  g:set_turn(1, 3)
  g:act{ action = "leave", seat = 3 } -- out of turn, during turn 3
  expect_eq(g:seat_status(3), "left")
  expect_eq(g:var("two_left_at"), 3)
  pass_until(g, 53)
  expect_eq(g:over(), false)
  g:pass()
  expect_eq(g:turn(), 53)
  local o = g:outcome()
  ---@cast o meeple.Draw
  expect_eq(o.result, "draw")
  expect_eq(#o.shares, 2, "only the two players still playing share the pot")
  expect_eq({ o.shares[1].seat, o.shares[1].weight, o.shares[2].seat, o.shares[2].weight }, { 1, 3, 2, 2 })
  expect_eq(g:owner("h"), 3, "the grey territory is still there")
end)

test("the countdown starts when the second-to-last opponent drops out, not before", function()
  local g = scenario.new{ seed = 4, seats = 4 }
  g:set_turn(1, 2)
  g:act{ action = "leave", seat = 4 }
  expect_eq(g:var("two_left_at"), 0, "three still playing")
  g:pass()
  g:act{ action = "leave", seat = 3 }
  expect_eq(g:var("two_left_at"), g:turn())
  expect(g:turn() >= 3)
end)

test("a later drop-out (a grey seat wiped out) does not restart the countdown", function()
  local g = scenario.new{ seed = 4, seats = 4, board = line({ "a", "b", "c", "d" }) }
  arrange(g, { a = { 1, 8 }, b = { 4, 1 }, c = { 2, 2 }, d = { 3, 2 } }, 4)
  g:set_turn(1, 4)
  g:act{ action = "leave", seat = 4 }
  g:act{ action = "leave", seat = 3 }
  expect_eq(g:var("two_left_at"), 4)
  g:pass() -- turn 5: seat 2
  g:pass() -- turn 6: seat 1
  expect_eq({ g:turn(), g:current_seat() }, { 6, 1 })
  g:set_counter("a", "dice", 8)
  g:force_dice{ 6, 6, 6, 6, 6, 6, 6, 6, 1 }
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(g:seat_status(4), "eliminated")
  expect_eq(g:var("two_left_at"), 4)
end)

test("with three or more still playing there is no limit", function()
  local g = scenario.new{ seed = 5, seats = 4, board = line({ "a", "b", "c", "d", "e", "f" }) }
  arrange(g, { a = { 1, 3 }, b = { 4, 1 }, c = { 2, 2 }, d = { 3, 2 }, e = { 1, 2 }, f = { 2, 2 } }, 4)
  g:set_turn(1, 1)
  g:force_dice{ 6, 6, 6, 1 }
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(g:seat_status(4), "eliminated")
  expect_eq(g:var("two_left_at"), 0, "three still playing")
  pass_until(g, 120)
  expect_eq(g:over(), false)
  expect_eq(g:var("two_left_at"), 0)
  for _, e in ipairs(g:events(true)) do
    expect(not (e.event == "turn_started" and e.seat == 4 and e.turn > 1), "seat 4 moved again")
  end
end)

test("at a table that started with two there is no 50-turn limit", function()
  local g = scenario.new{ seed = 6, seats = 2 }
  pass_until(g, 150)
  expect_eq(g:over(), false)
  expect_eq(g:var("two_left_at"), 0)
  expect_eq(g:seat_status(1), "active")
  expect_eq(g:seat_status(2), "active")
end)

test("at a table of two an elimination ends the game with a win, not a countdown", function()
  local g = scenario.new{ seed = 1, seats = 2, board = line({ "a", "b", "c", "d" }) }
  arrange(g, { a = { 1, 3 }, b = { 2, 1 }, c = { 1, 1 }, d = { 1, 1 } }, 2)
  g:force_dice{ 6, 6, 6, 1 }
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(g:var("two_left_at"), 0)
  expect_eq(g:outcome(), { result = "win", seats = { 1 } })
end)

test("a win during the 50 turns ends the game before the draw", function()
  local g = fifty()
  g:set_owner("h", 2)
  g:set_status(3, "eliminated")
  g:set_var("two_left_at", 10)
  g:set_turn(1, 60)
  -- seat 1 sweeps the line from c in turn 60, the last turn of the countdown
  g:set_counter("c", "dice", 8)
  g:force_dice{ 6, 6, 6, 6, 6, 6, 6, 6, 1, 1 }
  g:act{ action = "attack", from = "c", to = "d" } -- d gets 7
  g:force_dice{ 6, 6, 6, 6, 6, 6, 6, 1, 1 }
  g:act{ action = "attack", from = "d", to = "e" } -- e gets 6
  g:set_counter("f", "dice", 8)
  g:force_dice{ 6, 6, 6, 6, 6, 6, 6, 6, 1, 1 }
  g:act{ action = "attack", from = "f", to = "g" } -- g gets 7
  g:force_dice{ 6, 6, 6, 6, 6, 6, 6, 1, 1 }
  g:act{ action = "attack", from = "g", to = "h" }
  expect_eq(g:outcome(), { result = "win", seats = { 1 } })
end)

test("if one of the last two drops out too, the survivor must still take the grey land", function()
  local g = scenario.new{ seed = 2, seats = 3, board = line({ "a", "b", "c", "d" }) }
  arrange(g, { a = { 1, 8 }, b = { 2, 1 }, c = { 3, 4 }, d = { 3, 4 } }, 3)
  g:set_turn(1, 10)
  g:act{ action = "leave", seat = 3 }
  expect_eq(g:var("two_left_at"), 10)
  g:force_dice{ 6, 6, 6, 6, 6, 6, 6, 6, 1 }
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(g:seat_status(2), "eliminated")
  expect_eq(g:over(), false, "grey c and d still stand")
  expect_eq(g:var("two_left_at"), 10, "the countdown runs on")
  pass_until(g, 60)
  expect_eq(g:over(), false)
  g:pass()
  expect_eq(g:outcome(), { result = "draw", shares = { { seat = 1, weight = 2, share = 1.0 } } })
end)
