-- Reinforcement at the end of a turn: one die per territory of the seat's largest connected
-- group, spread at random over the seat's own territories with room (at most 8 dice each);
-- dice with no room wait in the reserve (at most 64), which joins the next reinforcement.

local line, arrange, dice_of = helpers.line, helpers.arrange, helpers.dice_of

-- Dice per space, as a table label -> dice.
local function snapshot(g)
  local out = {}
  for _, label in ipairs(g:labels()) do out[label] = g:counter(label, "dice") end
  return out
end

-- Checks that between two snapshots only `seat`'s territories changed, none went down and
-- none went above 8; returns how many dice were added.
---@param g meeple.Scenario
---@param before table<string, integer> dice by label
---@param seat integer
local function added_to(g, before, seat)
  local added = 0
  for label, was in pairs(before) do
    local now = g:counter(label, "dice")
    if g:owner(label) == seat then
      expect(now >= was, label .. " lost dice")
      expect(now <= 8, label .. " holds " .. now .. " dice")
      added = added + now - was
    else
      expect_eq(now, was, "dice on " .. label .. " (not seat " .. seat .. "'s)")
    end
  end
  return added
end

-- x - a - b - c - y : seat 1 holds a, b, c; seat 2 holds x and y (2 dice each, so its turn
-- does not end by itself).
local abc = line({ "x", "a", "b", "c", "y" })
local function abc_game(a, b, c, reserve)
  local g = scenario.new{ seed = 4, seats = 2, board = abc }
  arrange(g, { x = { 2, 2 }, a = { 1, a }, b = { 1, b }, c = { 1, c }, y = { 2, 2 } }, 2)
  g:set_resource(1, "reserve", reserve or 0)
  return g
end

test("groups of 3 and 2 give 3 new dice", function()
  local g = scenario.new{ seed = 2, seats = 2, board = line({ "a", "b", "c", "x", "d", "e", "y" }) }
  arrange(g, { a = { 1, 1 }, b = { 1, 1 }, c = { 1, 2 }, x = { 2, 2 }, d = { 1, 1 }, e = { 1, 1 }, y = { 2, 2 } }, 2)
  local before = snapshot(g)
  g:pass()
  expect_eq(added_to(g, before, 1), 3)
  expect_eq(g:resource(1, "reserve"), 0)
  expect_eq(g:current_seat(), 2)
end)

test("the example of the rules: groups of 6, 3 and 5 give 6 new dice", function()
  local ids = { "a1", "a2", "a3", "a4", "a5", "a6", "x1", "b1", "b2", "b3", "x2", "c1", "c2", "c3", "c4", "c5", "x3" }
  local g = scenario.new{ seed = 6, seats = 2, board = line(ids) }
  local layout = {}
  for _, id in ipairs(ids) do
    layout[id] = id:sub(1, 1) == "x" and { 2, 2 } or { 1, 1 }
  end
  layout.a6 = { 1, 2 }
  arrange(g, layout, 2)
  local before = snapshot(g)
  g:pass()
  local ev = g:events()
  expect_eq(added_to(g, before, 1), 6)
  expect_eq(g:resource(1, "reserve"), 0)
  -- every placement event is on one of seat 1's territories, before the turn ended
  local placed, ended = 0, false ---@type number, boolean
  for _, e in ipairs(ev) do
    if e.event == "turn_ended" then ended = true end
    if e.event == "counter_changed" then
      expect(not ended, "dice placed after the turn ended")
      expect_eq(g:owner(e.space), 1, "placed on " .. e.space)
      placed = placed + e.to - e.from
    end
  end
  expect_eq(placed, 6)
end)

test("the largest group is measured when the turn ends, after conquests", function()
  -- a b c | x | d e : conquering x joins the groups into one of 6
  local g = scenario.new{ seed = 2, seats = 2, board = line({ "a", "b", "c", "x", "d", "e", "y" }) }
  arrange(g, { a = { 1, 1 }, b = { 1, 1 }, c = { 1, 3 }, x = { 2, 1 }, d = { 1, 1 }, e = { 1, 2 }, y = { 2, 2 } }, 2)
  g:force_dice{ 6, 6, 6, 1 }
  g:act{ action = "attack", from = "c", to = "x" }
  expect_eq(g:owner("x"), 1)
  expect_eq(g:current_seat(), 1, "e can still attack y")
  local before = snapshot(g)
  g:pass()
  expect_eq(added_to(g, before, 1), 6)
end)

test("a single territory gives one die", function()
  local g = scenario.new{ seed = 2, seats = 2, board = line({ "a", "x", "b", "y" }) }
  arrange(g, { a = { 1, 2 }, x = { 2, 2 }, b = { 1, 1 }, y = { 2, 2 } }, 2)
  local before = snapshot(g)
  g:pass()
  expect_eq(added_to(g, before, 1), 1)
end)

test("new dice go only where there is room: the rest waits in the reserve", function()
  local g = abc_game(8, 8, 7)
  g:pass()
  expect_eq(g:counter("a", "dice"), 8)
  expect_eq(g:counter("b", "dice"), 8)
  expect_eq(g:counter("c", "dice"), 8)
  expect_eq(g:resource(1, "reserve"), 2)
  expect_eq(g:counter("x", "dice"), 2)
  expect_eq(g:counter("y", "dice"), 2)
end)

test("when every territory is full all new dice go to the reserve", function()
  local g = abc_game(8, 8, 8)
  g:pass()
  expect_eq({ g:counter("a", "dice"), g:counter("b", "dice"), g:counter("c", "dice") }, { 8, 8, 8 })
  expect_eq(g:resource(1, "reserve"), 3)
  local placed = 0
  for _, e in ipairs(g:events()) do
    if e.event == "counter_changed" then placed = placed + 1 end
  end
  expect_eq(placed, 0, "no die placed anywhere")
end)

test("the reserve holds at most 64 dice", function()
  local g = abc_game(8, 8, 8, 63)
  g:pass()
  expect_eq(g:resource(1, "reserve"), 64)
  g = abc_game(8, 8, 8, 64)
  g:pass()
  expect_eq(g:resource(1, "reserve"), 64)
  g:set_resource(1, "reserve", 100)
  expect_eq(g:resource(1, "reserve"), 64, "arranging clamps too")
end)

test("reserve dice join the next reinforcement", function()
  local g = abc_game(1, 1, 1, 4)
  g:pass()
  expect_eq(dice_of(g, 1), 3 + 3 + 4)
  expect_eq(g:resource(1, "reserve"), 0)
end)

test("new dice join the reserve first, so the pool is capped at 64 before placing", function()
  -- reserve 63 + 3 new = 66, capped to 64; 2 places free; 62 stay in reserve
  local g = abc_game(8, 8, 6, 63)
  g:pass()
  expect_eq(g:counter("c", "dice"), 8)
  expect_eq(g:resource(1, "reserve"), 62)
end)

test("dice kept in reserve are placed once room appears (played out)", function()
  local g = abc_game(8, 8, 8)
  g:set_turn(1, 1)
  g:pass() -- turn 1: everything full, 3 dice to the reserve
  expect_eq(g:resource(1, "reserve"), 3)
  expect_eq(g:current_seat(), 2)
  g:pass() -- turn 2: seat 2
  expect_eq(g:current_seat(), 1)
  expect_eq(g:turn(), 3)
  -- a(8) attacks x and loses: a keeps 1 die (x may have been reinforced: reset it to 2)
  g:set_counter("x", "dice", 2)
  g:force_dice{ 1, 1, 1, 1, 1, 1, 1, 1, 6, 6 }
  g:act{ action = "attack", from = "a", to = "x" }
  expect_eq(g:counter("a", "dice"), 1)
  expect_eq(g:current_seat(), 1, "c can still attack y")
  g:pass() -- 3 in reserve + 3 new = 6, all onto a (the only room)
  expect_eq(g:counter("a", "dice"), 7)
  expect_eq(g:resource(1, "reserve"), 0)
end)

test("reinforcement is the whole pool when it fits, however many territories", function()
  -- 12 territories of seat 1 in one line: 12 new dice, 20 in reserve -> 32 placed
  local ids, layout = {}, {}
  for i = 1, 12 do
    ids[i] = "t" .. i
    layout[ids[i]] = { 1, 1 }
  end
  ids[13] = "z"
  layout.z = { 2, 2 }
  local g = scenario.new{ seed = 8, seats = 2, board = line(ids) }
  arrange(g, layout, 2)
  g:set_resource(1, "reserve", 20)
  local before = snapshot(g)
  g:pass()
  expect_eq(added_to(g, before, 1), 32)
  expect_eq(g:resource(1, "reserve"), 0)
end)

test("new dice land at random: different seeds fill different territories", function()
  local ids = { "a", "b", "c", "d", "e", "z" }
  local hits, patterns, distinct = {}, {}, 0
  for seed = 1, 30 do
    local g = scenario.new{ seed = seed, seats = 2, board = line(ids) }
    arrange(g, { a = { 1, 1 }, b = { 1, 1 }, c = { 1, 1 }, d = { 1, 1 }, e = { 1, 2 }, z = { 2, 2 } }, 2)
    local before = snapshot(g)
    g:pass()
    expect_eq(added_to(g, before, 1), 5, "seed " .. seed)
    local key = {}
    for _, id in ipairs{ "a", "b", "c", "d", "e" } do
      local got = g:counter(id, "dice") - before[id]
      if got > 0 then hits[id] = true end
      key[#key + 1] = tostring(got)
    end
    local k = table.concat(key, ",")
    if not patterns[k] then
      patterns[k] = true
      distinct = distinct + 1
    end
  end
  for _, id in ipairs{ "a", "b", "c", "d", "e" } do
    expect(hits[id], id .. " never received a die in 30 games")
  end
  expect(distinct >= 10, "only " .. distinct .. " different placements in 30 games")
end)

-- The largest connected group of a seat, found by walking the borders.
local function largest_group(g, seat)
  local seen, best = {}, 0
  for _, start in ipairs(g:labels()) do
    if g:owner(start) == seat and not seen[start] then
      seen[start] = true
      local queue, size = { start }, 0
      while #queue > 0 do
        local here = table.remove(queue)
        size = size + 1
        for _, other in ipairs(g:neighbors(here)) do
          if g:owner(other) == seat and not seen[other] then
            seen[other] = true
            queue[#queue + 1] = other
          end
        end
      end
      if size > best then best = size end
    end
  end
  return best
end

test("on the real map every seat's reinforcement is its largest group", function()
  for _, case in ipairs{ { 1, 2 }, { 2, 4 }, { 3, 6 }, { 4, 8 } } do
    local g = scenario.new{ seed = case[1], seats = case[2] }
    for _ = 1, case[2] do
      local seat = g:current_seat()
      local group = largest_group(g, seat)
      expect(group >= 1)
      local reserve = g:resource(seat, "reserve")
      g:pass()
      -- the pass may run further turns by themselves; count only this seat's turn end
      local added, ended = 0, false ---@type number, boolean
      for _, e in ipairs(g:events()) do
        if e.event == "turn_ended" then
          expect_eq(e.seat, seat)
          ended = true
          break
        end
        if e.event == "counter_changed" then
          expect_eq(g:owner(e.space), seat, "die placed on " .. e.space)
          added = added + e.to - e.from
        end
      end
      expect(ended, "no turn_ended")
      local kept = g:resource(seat, "reserve") - reserve
      expect_eq(added + kept, group, ("seed %d seat %d"):format(case[1], seat))
    end
  end
end)

test("a territory holds at most 8 dice, whatever is asked", function()
  local g = abc_game(1, 1, 1)
  g:set_counter("a", "dice", 12)
  expect_eq(g:counter("a", "dice"), 8, "the dice counter is capped at 8")
  g:set_counter("b", "dice", -3)
  expect_eq(g:counter("b", "dice"), 0)
  -- 60 dice in reserve onto 3 territories: they fill to 8 and no further
  g:set_counter("b", "dice", 1)
  g:set_resource(1, "reserve", 60)
  g:pass()
  expect_eq({ g:counter("a", "dice"), g:counter("b", "dice"), g:counter("c", "dice") }, { 8, 8, 8 })
  expect_eq(g:resource(1, "reserve"), 60 + 3 - 14)
end)
