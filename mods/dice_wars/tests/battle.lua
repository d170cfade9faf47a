-- Attacks: which attacks are legal, and how a battle is decided (sums of all dice on both
-- territories; the higher sum conquers, a tie goes to the defender; the stack moves in and
-- leaves one die behind). Battles use forced dice so every outcome is exact.

local board, arrange, find = helpers.board, helpers.arrange, helpers.find

-- a - b - c    a, c: seat 1; b: seat 2
-- |       |
-- d - e - f    d: seat 2; e: seat 1; f: seat 2
-- g is an island, linked to nothing but f.
local ids = { "a", "b", "c", "d", "e", "f", "g" }
local links = { { "a", "b" }, { "b", "c" }, { "a", "d" }, { "c", "f" }, { "d", "e" }, { "e", "f" }, { "f", "g" } }

local function fresh(layout)
  local g = scenario.new{ seed = 1, seats = 2, board = board(ids, links) }
  arrange(g, layout or {
    a = { 1, 4 }, b = { 2, 2 }, c = { 1, 1 }, d = { 2, 3 }, e = { 1, 3 }, f = { 2, 2 }, g = { 1, 5 },
  }, 2)
  return g
end

local function attacks(g)
  local out = {}
  for _, a in ipairs(g:legal()) do
    if a.action == "attack" then out[#out + 1] = a.from .. ">" .. a.to end
  end
  table.sort(out)
  return out
end

-- ----- legality -----

test("legal attacks: from own territories with more than one die to adjacent enemies", function()
  local g = fresh()
  -- a(4) borders b and d; c has 1 die; e(3) borders d and f; g(5) borders f.
  expect_eq(attacks(g), { "a>b", "a>d", "e>d", "e>f", "g>f" })
  local legal = g:legal()
  expect_eq(#find(legal, function(x) return x.action == "pass" end), 1, "pass is offered")
  expect_eq(#find(legal, function(x) return x.action == "leave" end), 1, "leave is offered")
  for _, x in ipairs(legal) do expect_eq(x.seat, 1, "every action is seat 1's") end
end)

test("attacking from a territory with one die is refused", function()
  local g = fresh()
  local ok, reason = g:try{ action = "attack", from = "c", to = "b" }
  expect_eq(ok, false)
  ---@cast reason -nil
  expect(reason:find("from", 1, true), reason)
  expect_eq(g:counter("c", "dice"), 1)
  expect_eq(g:owner("b"), 2)
end)

test("attacking from an enemy territory is refused", function()
  local g = fresh()
  local ok, reason = g:try{ action = "attack", from = "b", to = "a" }
  expect_eq(ok, false)
  ---@cast reason -nil
  expect(reason:find("not owned", 1, true), reason)
  ok = g:try{ action = "attack", from = "d", to = "e" }
  expect_eq(ok, false)
end)

test("attacking one's own territory is refused", function()
  local g = fresh()
  -- turn f over to seat 1: g-f and e-f are now pairs of own territories
  g:set_owner("f", 1)
  local ok, reason = g:try{ action = "attack", from = "g", to = "f" }
  expect_eq(ok, false)
  ---@cast reason -nil
  expect(reason:find("`to` does not satisfy", 1, true), reason)
  ok = g:try{ action = "attack", from = "e", to = "f" }
  expect_eq(ok, false)
end)

test("attacking a territory that is not adjacent is refused", function()
  local g = fresh()
  local ok, reason = g:try{ action = "attack", from = "a", to = "f" }
  expect_eq(ok, false)
  ---@cast reason -nil
  expect(reason:find("not adjacent", 1, true), reason)
  ---@cast reason string?
  ok, reason = g:try{ action = "attack", from = "g", to = "b" }
  expect_eq(ok, false)
  ---@cast reason -nil
  expect(reason:find("not adjacent", 1, true), reason)
end)

test("an attack out of turn is refused, and an unknown space is an error", function()
  local g = fresh()
  local ok, reason = g:try{ action = "attack", seat = 2, from = "b", to = "a" }
  expect_eq(ok, false)
  ---@cast reason -nil
  expect(reason:find("not seat 2's turn", 1, true), reason)
  ---@cast reason string?
  ok, reason = g:try{ action = "attack", from = "a", to = "zz" }
  expect_eq(ok, false)
  ---@cast reason -nil
  expect(reason:find("zz", 1, true), reason)
end)

test("a refused attack rolls no dice and changes nothing", function()
  local g = fresh()
  g:force_dice{ 6, 6, 6, 6 }
  local before = g:hash()
  for _, bad in ipairs{
    { action = "attack", from = "c", to = "b" },
    { action = "attack", from = "b", to = "a" },
    { action = "attack", from = "a", to = "f" },
  } do
    local ok = g:try(bad)
    expect_eq(ok, false)
  end
  expect_eq(g:forced_left(), 4, "no forced die was used")
  expect_eq(g:hash(), before)
  expect_eq(g:events(), {}, "no events")
  expect_eq(g:turn(), 1)
  expect_eq(g:current_seat(), 1)
end)

-- ----- battles -----

test("higher attack sum conquers: the stack moves in, one die stays behind", function()
  local g = fresh()
  g:force_dice{ 2, 3, 4, 1, 5, 1, 1 } -- attack 2+3+4+1 = 10 vs defence 5+1 = 6
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(g:forced_left(), 1, "4 attacking and 2 defending dice were rolled")
  expect_eq(g:owner("b"), 1)
  expect_eq(g:counter("b", "dice"), 3, "attacker's 4 dice minus the one left behind")
  expect_eq(g:owner("a"), 1)
  expect_eq(g:counter("a", "dice"), 1)
  expect_eq(g:owned(1), 5)
  expect_eq(g:owned(2), 2)
  -- the turn goes on: no reinforcement yet
  expect_eq(g:current_seat(), 1)
  expect_eq(g:turn(), 1)
end)

test("the events of a won battle: both rolls with their faces, then the changes", function()
  local g = fresh()
  g:force_dice{ 2, 3, 4, 1, 5, 1 }
  g:act{ action = "attack", from = "a", to = "b" }
  local ev = g:events()
  expect_eq(ev[1].event, "acted")
  expect_eq({ ev[1].action, ev[1].from, ev[1].to, ev[1].seat }, { "attack", "a", "b", 1 })
  expect_eq(ev[2], { event = "rolled", roll = "attack", sides = 6, faces = { 2, 3, 4, 1 }, value = 10 })
  expect_eq(ev[3], { event = "rolled", roll = "defence", sides = 6, faces = { 5, 1 }, value = 6 })
  expect_eq(ev[4], { event = "decided", success = true })
  local owner = find(ev, function(e) return e.event == "owner_changed" end)
  expect_eq(owner, { { event = "owner_changed", space = "b", from = 2, to = 1 } })
  local counters = find(ev, function(e) return e.event == "counter_changed" end)
  expect_eq(counters, {
    { event = "counter_changed", space = "b", counter = "dice", from = 2, to = 3 },
    { event = "counter_changed", space = "a", counter = "dice", from = 4, to = 1 },
  })
end)

test("higher defence sum: the attacker keeps one die, the defender loses nothing", function()
  local g = fresh()
  g:force_dice{ 1, 1, 2, 1, 6, 6 } -- 5 vs 12
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(g:forced_left(), 0)
  expect_eq(g:owner("a"), 1)
  expect_eq(g:counter("a", "dice"), 1)
  expect_eq(g:owner("b"), 2)
  expect_eq(g:counter("b", "dice"), 2)
  local ev = g:events()
  expect_eq(ev[2].faces, { 1, 1, 2, 1 })
  expect_eq(ev[2].value, 5)
  expect_eq(ev[3].faces, { 6, 6 })
  expect_eq(ev[3].value, 12)
  expect_eq(ev[4], { event = "decided", success = false })
  expect_eq(#find(ev, function(e) return e.event == "owner_changed" end), 0)
  expect_eq(find(ev, function(e) return e.event == "counter_changed" end), {
    { event = "counter_changed", space = "a", counter = "dice", from = 4, to = 1 },
  })
end)

test("a tie goes to the defender", function()
  local g = fresh()
  g:force_dice{ 3, 3, 3, 3, 6, 6 } -- 12 vs 12
  g:act{ action = "attack", from = "a", to = "b" }
  local ev = g:events()
  expect_eq(ev[2].value, 12)
  expect_eq(ev[3].value, 12)
  expect_eq(ev[4], { event = "decided", success = false })
  expect_eq(g:owner("b"), 2)
  expect_eq(g:counter("b", "dice"), 2)
  expect_eq(g:counter("a", "dice"), 1)
end)

test("a win by one pip conquers", function()
  local g = fresh()
  g:force_dice{ 3, 3, 3, 4, 6, 6 } -- 13 vs 12
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(g:owner("b"), 1)
  expect_eq(g:counter("b", "dice"), 3)
  expect_eq(g:counter("a", "dice"), 1)
end)

test("the defender's whole stack is lost: 2 dice take a territory of 8", function()
  local g = fresh()
  g:set_counter("a", "dice", 2)
  g:set_counter("b", "dice", 8)
  g:force_dice{ 6, 6, 1, 1, 1, 1, 1, 1, 1, 1 } -- 12 vs 8
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(g:forced_left(), 0, "2 + 8 dice rolled")
  expect_eq(g:owner("b"), 1)
  expect_eq(g:counter("b", "dice"), 1)
  expect_eq(g:counter("a", "dice"), 1)
end)

test("a full stack of 8 conquers with 7 dice", function()
  local g = fresh()
  g:set_counter("a", "dice", 8)
  g:force_dice{ 6, 6, 6, 6, 6, 6, 6, 6, 1, 1 }
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(g:counter("b", "dice"), 7)
  expect_eq(g:counter("a", "dice"), 1)
  expect_eq(g:owner("b"), 1)
end)

test("a conquered territory can attack again in the same turn", function()
  local g = fresh()
  g:set_owner("c", 2)
  g:set_counter("a", "dice", 5)
  g:force_dice{ 6, 6, 6, 6, 6, 1, 1 } -- a(5) takes b(2), moving 4 dice in
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(g:counter("b", "dice"), 4)
  expect_eq(attacks(g), { "b>c", "e>d", "e>f", "g>f" })
  g:force_dice{ 6, 6, 6, 6, 1 } -- b(4) takes c(1)
  g:act{ action = "attack", from = "b", to = "c" }
  expect_eq(g:owner("c"), 1)
  expect_eq(g:counter("c", "dice"), 3)
  expect_eq(g:counter("b", "dice"), 1)
  expect_eq(attacks(g), { "c>f", "e>d", "e>f", "g>f" })
  expect_eq(g:current_seat(), 1)
  expect_eq(g:turn(), 1)
end)

test("a seat may attack as many times as it likes in one turn", function()
  local g = fresh()
  for _ = 1, 3 do
    g:set_counter("a", "dice", 3)
    g:force_dice{ 1, 1, 1, 6, 6 }
    g:act{ action = "attack", from = "a", to = "b" }
    expect_eq(g:counter("a", "dice"), 1)
    expect_eq(g:owner("b"), 2)
    expect_eq(g:current_seat(), 1, "still seat 1's turn")
  end
  expect_eq(g:turn(), 1)
end)
