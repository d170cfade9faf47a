-- Grey players: a seat that leaves (on its turn or out of turn) keeps its territories and
-- dice, takes no more turns, never attacks, gets no reinforcement, cannot come back, and
-- defends by the same rules as everyone; the game goes on without it.

local board, arrange, find = helpers.board, helpers.arrange, helpers.find

-- Territories and dice of one seat: label -> dice.
local function holdings(g, seat)
  local out = {}
  for _, label in ipairs(g:labels()) do
    if g:owner(label) == seat then out[label] = g:counter(label, "dice") end
  end
  return out
end

-- A ring of nine: a1 b1 c1 a2 b2 c2 a3 b3 c3 (seat 1 holds the a's, seat 2 the b's, seat 3
-- the c's).
local ring_ids = { "a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3" }
local ring_links = {}
for i = 1, #ring_ids do
  ring_links[i] = { ring_ids[i], ring_ids[i % #ring_ids + 1] }
end
local ring = board(ring_ids, ring_links)

local function three(dice)
  local g = scenario.new{ seed = 12, seats = 3, board = ring }
  local layout = {}
  for _, id in ipairs(ring_ids) do
    local seat = ({ a = 1, b = 2, c = 3 })[id:sub(1, 1)]
    layout[id] = { seat, dice and dice[id] or 3 }
  end
  arrange(g, layout, 3)
  g:set_turn(1, 1)
  return g
end

test("a seat may leave out of turn: it keeps its territories and dice, the turn goes on", function()
  local g = three()
  local before = holdings(g, 2)
  g:act{ action = "leave", seat = 2 }
  expect_eq(g:seat_status(2), "left")
  expect_eq(find(g:events(), function(e) return e.event == "seat_left" end), { { event = "seat_left", seat = 2 } })
  expect_eq(holdings(g, 2), before)
  expect_eq(g:owned(2), 3)
  expect_eq(g:current_seat(), 1, "still seat 1's turn")
  expect_eq(g:turn(), 1)
  expect_eq(g:over(), false)
end)

test("a grey seat is skipped and gets no reinforcement", function()
  local g = three()
  local before = holdings(g, 2)
  g:act{ action = "leave", seat = 2 }
  local order = {}
  for _ = 1, 6 do
    g:pass()
    for _, e in ipairs(g:events()) do
      if e.event == "turn_started" then order[#order + 1] = e.seat end
      expect(not (e.event == "turn_ended" and e.seat == 2), "seat 2 ended a turn")
    end
  end
  expect_eq(order, { 3, 1, 3, 1, 3, 1 })
  expect_eq(holdings(g, 2), before, "grey dice never change by themselves")
  expect_eq(g:resource(2, "reserve"), 0)
end)

test("a seat that leaves on its own turn ends it without reinforcement", function()
  local g = three()
  local before = holdings(g, 1)
  g:act{ action = "leave" }
  expect_eq(g:seat_status(1), "left")
  local ev = g:events()
  expect_eq(find(ev, function(e) return e.event == "turn_ended" end), {}, "no turn_ended for a seat that left")
  expect_eq(find(ev, function(e) return e.event == "counter_changed" end), {}, "no dice placed")
  expect_eq(find(ev, function(e) return e.event == "turn_started" end)[1].seat, 2)
  expect_eq(g:current_seat(), 2)
  expect_eq(holdings(g, 1), before)
  expect_eq(g:resource(1, "reserve"), 0)
end)

test("grey dice never attack: a grey seat cannot act, leave again or come back", function()
  local g = three({ b1 = 8, b2 = 8, b3 = 8 })
  g:act{ action = "leave", seat = 2 }
  local ok, reason = g:try{ action = "attack", seat = 2, from = "b1", to = "a1" }
  expect_eq(ok, false)
  ---@cast reason -nil
  expect(reason:find("seat 2", 1, true), reason)
  ok = g:try{ action = "leave", seat = 2 }
  expect_eq(ok, false, "leaving twice")
  ok = g:try{ action = "pass", seat = 2 }
  expect_eq(ok, false, "a grey seat cannot pass either")
  -- several rounds later its 8-dice stacks have still not moved
  for _ = 1, 6 do g:pass() end
  expect_eq(holdings(g, 2), { b1 = 8, b2 = 8, b3 = 8 })
  for _, e in ipairs(g:events(true)) do
    if e.event == "acted" then expect(e.seat ~= 2 or e.action == "leave", "seat 2 acted: " .. e.action) end
  end
  expect_eq(g:seat_status(2), "left")
end)

test("grey territories can be attacked and defend by the same rules", function()
  local g = three({ a1 = 4, b1 = 2, a2 = 5, b2 = 3 })
  g:act{ action = "leave", seat = 2 }
  -- a tie goes to the grey defender
  g:force_dice{ 2, 2, 2, 2, 4, 4 }
  g:act{ action = "attack", from = "a1", to = "b1" }
  expect_eq(g:owner("b1"), 2)
  expect_eq(g:counter("b1", "dice"), 2)
  expect_eq(g:counter("a1", "dice"), 1)
  -- a higher defence sum holds
  g:force_dice{ 1, 1, 1, 1, 1, 6, 6, 6 }
  g:act{ action = "attack", from = "a2", to = "b2" }
  expect_eq(g:owner("b2"), 2)
  expect_eq(g:counter("b2", "dice"), 3)
  expect_eq(g:counter("a2", "dice"), 1)
  -- a higher attack sum conquers: the stack moves in, one die stays
  g:set_counter("a2", "dice", 5)
  g:force_dice{ 6, 6, 6, 6, 6, 1, 1, 1 }
  g:act{ action = "attack", from = "a2", to = "b2" }
  expect_eq(g:owner("b2"), 1)
  expect_eq(g:counter("b2", "dice"), 4)
  expect_eq(g:counter("a2", "dice"), 1)
  expect_eq(g:seat_status(2), "left")
  expect_eq(g:owned(2), 2)
end)

test("grey territories block a win until they are taken", function()
  -- 2 seats: seat 2 leaves; seat 1 is the only one playing but has not won
  local g = scenario.new{ seed = 12, seats = 2, board = board({ "a", "b", "c" }, { { "a", "b" }, { "b", "c" } }) }
  arrange(g, { a = { 1, 8 }, b = { 2, 1 }, c = { 2, 1 } }, 2)
  g:act{ action = "leave", seat = 2 }
  expect_eq(g:over(), false)
  expect_eq(g:var("two_left_at"), 0, "no countdown at a table of two")
  g:force_dice{ 6, 6, 6, 6, 6, 6, 6, 6, 1 }
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(g:over(), false)
  g:force_dice{ 6, 6, 6, 6, 6, 6, 6, 1 }
  g:act{ action = "attack", from = "b", to = "c" }
  expect_eq(g:over(), true)
  expect_eq(g:outcome(), { result = "win", seats = { 1 } })
end)

test("the last active seat keeps taking turns against grey dice", function()
  local g = scenario.new{ seed = 12, seats = 2, board = board({ "a", "b", "c" }, { { "a", "b" }, { "b", "c" } }) }
  arrange(g, { a = { 1, 2 }, b = { 2, 3 }, c = { 2, 3 } }, 2)
  g:set_turn(1, 1)
  g:act{ action = "leave", seat = 2 }
  g:pass()
  expect_eq(g:current_seat(), 1)
  expect_eq(g:turn(), 2)
  expect_eq(g:counter("a", "dice"), 3, "seat 1 reinforced: largest group 1")
  expect_eq(g:counter("b", "dice"), 3, "grey b unchanged")
  expect_eq(g:counter("c", "dice"), 3, "grey c unchanged")
end)

test("in a played game a grey seat's stacks stay as they were until conquered", function()
  local g = scenario.new{ seed = 21, seats = 4 }
  g:act{ action = "leave", seat = 3 }
  local grey = holdings(g, 3)
  local mark = #g:events(true)
  g:play("greedy", 300)
  local all = g:events(true)
  for i = mark + 1, #all do
    local e = all[i]
    expect(not (e.event == "acted" and e.seat == 3), "seat 3 acted")
    expect(not (e.event == "turn_started" and e.seat == 3), "seat 3 took a turn")
  end
  for label, dice in pairs(grey) do
    if g:owner(label) == 3 then
      expect_eq(g:counter(label, "dice"), dice, "grey territory " .. label)
    end
  end
  expect_eq(g:resource(3, "reserve"), 0)
end)
