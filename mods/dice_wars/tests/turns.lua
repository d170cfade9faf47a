-- Turns: ending a turn by choice, the automatic end when no border territory holds more than
-- one die, the turn order (a seat drawn at random first, then round the seats in order), and
-- elimination of a seat that loses its last territory (it is skipped from then on).

local board, arrange, find, dice_of = helpers.board, helpers.arrange, helpers.find, helpers.dice_of

local function kinds(events, wanted)
  local out = {}
  for _, e in ipairs(events) do
    if wanted[e.event] then
      out[#out + 1] = e.event .. ":" .. tostring(e.seat or e.space)
    end
  end
  return out
end

-- A ring of six: a b c d e f (f links back to a).
local ring = board({ "a", "b", "c", "d", "e", "f" },
  { { "a", "b" }, { "b", "c" }, { "c", "d" }, { "d", "e" }, { "e", "f" }, { "f", "a" } })

test("play goes round the seats in order, round after round", function()
  local g = scenario.new{ seed = 3, seats = 3, board = ring }
  arrange(g, { a = { 1, 3 }, b = { 2, 3 }, c = { 3, 3 }, d = { 1, 3 }, e = { 2, 3 }, f = { 3, 3 } }, 3)
  g:set_turn(1, 1)
  expect_eq(g:current_seat(), 1)
  local order = {}
  for _ = 1, 7 do
    g:pass()
    local started = find(g:events(), function(e) return e.event == "turn_started" end)
    expect_eq(#started, 1)
    order[#order + 1] = started[1].seat
  end
  expect_eq(order, { 2, 3, 1, 2, 3, 1, 2 })
  expect_eq(g:turn(), 8)
end)

-- The seat whose turn a new game starts with (its first `turn_started` event), checked to be
-- turn 1 of round 1.
local function first_seat(seed, seats)
  local g = scenario.new{ seed = seed, seats = seats }
  local started = find(g:events(true), function(e) return e.event == "turn_started" end)
  local seat = started[1].seat
  expect_eq(started[1], { event = "turn_started", seat = seat, turn = 1, round = 1 }, "seed " .. seed)
  expect_eq(g:current_seat(), seat)
  return seat
end

test("the first turn of a new game goes to a seat drawn at random, turn 1 of round 1", function()
  -- 240 games of four: each seat should start 60 times. The bounds are 4 standard deviations
  -- of a binomial count (sqrt(240 * 1/4 * 3/4) = 6.7), which a fair draw leaves less than
  -- once in 4,000 sets of seeds; seat 1 always starting (or never) is far outside them.
  local starts = { 0, 0, 0, 0 }
  for seed = 1, 240 do
    local seat = first_seat(seed, 4)
    starts[seat] = starts[seat] + 1
  end
  for seat = 1, 4 do
    expect(starts[seat] >= 33 and starts[seat] <= 87, ("seat %d started %d of 240 games"):format(seat, starts[seat]))
  end
end)

test("the same seed draws the same first seat, at every table size", function()
  for _, seats in ipairs{ 2, 5, 8 } do
    local seen = {}
    for seed = 1, 40 do
      local seat = first_seat(seed, seats)
      expect(seat >= 1 and seat <= seats, "seat " .. seat)
      expect_eq(first_seat(seed, seats), seat, "seed " .. seed .. " again")
      seen[seat] = true
    end
    local different = 0
    for _ in pairs(seen) do different = different + 1 end
    expect(different >= 2, seats .. " seats: 40 games all started with the same seat")
  end
end)

test("passing ends the turn: turn_ended, reinforcement, then the next seat's turn", function()
  local g = scenario.new{ seed = 3, seats = 2, board = ring }
  arrange(g, { a = { 1, 3 }, b = { 2, 3 }, c = { 1, 3 }, d = { 2, 3 }, e = { 1, 3 }, f = { 2, 3 } }, 2)
  g:set_turn(1, 1)
  g:pass()
  local ev = g:events()
  expect_eq(ev[1].event, "acted")
  expect_eq(ev[1].action, "pass")
  expect_eq(kinds(ev, { turn_ended = true, turn_started = true }), { "turn_ended:1", "turn_started:2" })
  -- reinforcement (3 isolated territories: largest group 1) happened before the turn ended
  local ended_at
  for i, e in ipairs(ev) do
    if e.event == "turn_ended" then ended_at = i end
  end
  local reinforced = find(ev, function(e) return e.event == "counter_changed" end)
  expect_eq(#reinforced, 1, "one die placed")
  for i, e in ipairs(ev) do
    if e.event == "counter_changed" then expect(i < ended_at, "dice placed before turn_ended") end
  end
  expect_eq(dice_of(g, 1), 10)
  expect_eq(dice_of(g, 2), 9, "the other seat gets nothing")
  expect_eq(g:current_seat(), 2)
  expect_eq(g:turn(), 2)
end)

test("passing is allowed while attacks remain, and a turn without any attack is fine", function()
  local g = scenario.new{ seed = 3, seats = 2, board = ring }
  arrange(g, { a = { 1, 8 }, b = { 2, 2 }, c = { 1, 8 }, d = { 2, 2 }, e = { 1, 8 }, f = { 2, 2 } }, 2)
  local ok = g:try{ action = "pass" }
  expect_eq(ok, true)
  expect_eq(g:current_seat(), 2)
  expect_eq(g:resource(1, "reserve"), 1, "every territory full: the 1 new die waits in reserve")
end)

-- a(1) - b(2) - c(1) - d(2) in a line; x is seat 1's interior territory behind a.
local line = board({ "x", "a", "b", "c", "d" }, { { "x", "a" }, { "a", "b" }, { "b", "c" }, { "c", "d" } })

test("the turn ends by itself right after the last possible attack (lost)", function()
  local g = scenario.new{ seed = 5, seats = 2, board = line }
  -- x holds 8 dice but borders no enemy, so it cannot attack
  arrange(g, { x = { 1, 8 }, a = { 1, 1 }, b = { 2, 2 }, c = { 1, 3 }, d = { 2, 2 } }, 2)
  g:force_dice{ 1, 1, 1, 6, 6 } -- c(3) loses to b(2)
  g:act{ action = "attack", from = "c", to = "b" }
  local ev = g:events()
  expect_eq(kinds(ev, { turn_ended = true, turn_started = true }), { "turn_ended:1", "turn_started:2" })
  -- the turn_ended comes right after the battle's own changes
  local i = 1
  while ev[i].event ~= "decided" do i = i + 1 end
  expect_eq(ev[i + 1], { event = "counter_changed", space = "c", counter = "dice", from = 3, to = 1 })
  expect_eq(g:current_seat(), 2)
  -- seat 1 was reinforced: largest group {x, a} = 2 dice, only a and c have room
  expect_eq(g:counter("x", "dice"), 8)
  expect_eq(g:counter("a", "dice") + g:counter("c", "dice"), 1 + 1 + 2)
end)

test("the turn ends by itself right after the last possible attack (won)", function()
  local g = scenario.new{ seed = 5, seats = 2, board = line }
  arrange(g, { x = { 1, 1 }, a = { 1, 1 }, b = { 2, 2 }, c = { 1, 2 }, d = { 2, 2 } }, 2)
  g:force_dice{ 6, 6, 1, 1 } -- c(2) takes d(2), leaving 1 die on each
  g:act{ action = "attack", from = "c", to = "d" }
  expect_eq(g:owner("d"), 1)
  expect_eq(kinds(g:events(), { turn_ended = true, turn_started = true }), { "turn_ended:1", "turn_started:2" })
  expect_eq(g:current_seat(), 2)
  -- reinforcement: groups {x, a} and {c, d} -> 2 dice onto x, a, c, d (all with room)
  expect_eq(dice_of(g, 1), 4 + 2)
end)

test("while one border territory can still attack, the turn goes on", function()
  local g = scenario.new{ seed = 5, seats = 2, board = line }
  arrange(g, { x = { 1, 1 }, a = { 1, 2 }, b = { 2, 2 }, c = { 1, 3 }, d = { 2, 2 } }, 2)
  g:force_dice{ 1, 1, 1, 6, 6 } -- c loses, a(2) can still attack b
  g:act{ action = "attack", from = "c", to = "b" }
  expect_eq(find(g:events(), function(e) return e.event == "turn_ended" end), {})
  expect_eq(g:current_seat(), 1)
  g:force_dice{ 1, 1, 6, 6 } -- a loses too: now the turn ends
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(kinds(g:events(), { turn_ended = true }), { "turn_ended:1" })
  expect_eq(g:current_seat(), 2)
end)

test("a turn that starts with no possible attack ends at once, with reinforcement", function()
  local g = scenario.new{ seed = 5, seats = 2, board = line }
  -- seat 2 has only single dice on its border: its turn will end by itself
  arrange(g, { x = { 1, 1 }, a = { 1, 3 }, b = { 2, 1 }, c = { 1, 3 }, d = { 2, 1 } }, 2)
  g:set_turn(1, 1)
  g:pass()
  local ev = g:events()
  expect_eq(kinds(ev, { turn_ended = true, turn_started = true }),
    { "turn_ended:1", "turn_started:2", "turn_ended:2", "turn_started:1" })
  expect_eq(dice_of(g, 2), 2 + 1, "seat 2 got its 1 die (largest group 1)")
  expect_eq(g:current_seat(), 1)
  expect_eq(g:turn(), 3)
end)

-- ----- elimination -----

test("a seat that loses its last territory is eliminated and skipped", function()
  local g = scenario.new{ seed = 9, seats = 3, board = ring }
  -- seat 2 holds only b; seat 3 holds d, e, f
  arrange(g, { a = { 1, 4 }, b = { 2, 1 }, c = { 1, 3 }, d = { 3, 2 }, e = { 3, 2 }, f = { 3, 2 } }, 3)
  g:set_turn(1, 1)
  g:force_dice{ 6, 6, 6, 6, 1 }
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(g:owned(2), 0)
  expect_eq(g:seat_status(2), "eliminated")
  local out = find(g:events(), function(e) return e.event == "seat_eliminated" end)
  expect_eq(out, { { event = "seat_eliminated", seat = 2 } })
  expect_eq(g:over(), false)
  expect_eq(g:current_seat(), 1)
  g:pass()
  expect_eq(g:current_seat(), 3, "seat 2 is skipped")
  g:pass()
  expect_eq(g:current_seat(), 1)
  g:pass()
  expect_eq(g:current_seat(), 3)
  -- an eliminated seat cannot act or leave
  local ok, reason = g:try{ action = "leave", seat = 2 }
  expect_eq(ok, false)
  ---@cast reason -nil
  expect(reason:find("seat 2", 1, true), reason)
  expect_eq(g:resource(2, "reserve"), 0)
end)

test("a seat is eliminated only when its last territory falls", function()
  local g = scenario.new{ seed = 9, seats = 3, board = ring }
  arrange(g, { a = { 1, 8 }, b = { 2, 1 }, c = { 2, 1 }, d = { 3, 2 }, e = { 3, 2 }, f = { 1, 4 } }, 3)
  g:force_dice{ 6, 6, 6, 6, 6, 6, 6, 6, 1 }
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(g:seat_status(2), "active")
  expect_eq(g:owned(2), 1)
  g:force_dice{ 6, 6, 6, 6, 6, 6, 6, 1 }
  g:act{ action = "attack", from = "b", to = "c" }
  expect_eq(g:seat_status(2), "eliminated")
end)

test("elimination through the rules only: an emptied seat drops out at the next check", function()
  local g = scenario.new{ seed = 9, seats = 3, board = ring }
  arrange(g, { a = { 1, 3 }, b = { 1, 3 }, c = { 1, 3 }, d = { 3, 2 }, e = { 3, 2 }, f = { 3, 2 } }, 3)
  -- seat 2 owns nothing: the end-of-turn check eliminates it, its turn never comes
  g:pass()
  expect_eq(g:seat_status(2), "eliminated")
  expect_eq(g:current_seat(), 3)
end)
