-- Battles: an army moving onto an enemy army fights at once, and again at the start of each of
-- its player's turns while both sides have units. Seat 1 attacks from D04 into D05 (plain).

local function defences(g, units)
  local out = {}
  for _, unit in ipairs(units) do out[#out + 1] = g:alive(unit) and g:stat(unit, "defence") or 0 end
  table.sort(out)
  return table.concat(out, " ")
end

local function battle(g, mine, theirs)
  local a, attackers = helpers.army(g, 1, "D04", mine, 4)
  local d, defenders = helpers.army(g, 2, "D05", theirs, 0)
  g:act{ action = "move", army = a, to = "D05" }
  return a, attackers, d, defenders
end

test("an even fight pairs one on one: each unit strikes and is struck once", function()
  for seed = 1, 10 do
    local g = helpers.game{ seed = seed }
    local _, attackers, _, defenders = battle(g, { "defender", "defender" }, { "defender", "defender" })
    expect_eq(defences(g, attackers), "2 2", "seed " .. seed)
    expect_eq(defences(g, defenders), "2 2", "seed " .. seed)
  end
end)

test("the log names each round's pairings: who strikes whom, and for how much", function()
  local g = helpers.game{ seed = 1 }
  local _, attackers, _, defenders = battle(g, { "soldier" }, { "defender" })
  local lines = {}
  for _, e in ipairs(g:events()) do
    if e.event == "log" then lines[#lines + 1] = e.text end
  end
  local a, d = attackers[1], defenders[1]
  expect_eq(lines, {
    "Battle on D05: 1 against 1",
    "   Seat 1's soldier #" .. a .. " strikes Seat 2's defender #" .. d .. " for 2",
    "   Seat 2's defender #" .. d .. " strikes Seat 1's soldier #" .. a .. " for 1",
    "Battle on D05: 0 fell",
  })
end)

test("more attackers spread over the defenders, one on one before two on one", function()
  for seed = 1, 10 do
    local g = helpers.game{ seed = seed }
    local _, attackers, _, defenders = battle(g, { "soldier", "soldier", "soldier" }, { "defender", "defender" })
    -- One defender meets two soldiers (4: it falls), the other one (2: 1 left); each defender
    -- strikes one soldier of those on it, two different soldiers.
    expect_eq(defences(g, defenders), "0 1", "seed " .. seed)
    expect_eq(defences(g, attackers), "1 1 2", "seed " .. seed)
  end
end)

test("more defenders spread over the attackers the same way", function()
  for seed = 1, 10 do
    local g = helpers.game{ seed = seed }
    local _, attackers, _, defenders = battle(g, { "soldier", "soldier" }, { "defender", "defender", "defender" })
    -- One soldier meets two defenders (2: it falls), the other one (1: 1 left); each soldier
    -- strikes one defender on it for 2.
    expect_eq(defences(g, attackers), "0 1", "seed " .. seed)
    expect_eq(defences(g, defenders), "1 1 3", "seed " .. seed)
  end
end)

test("the battle goes on at the start of the attacker's next turn, and its armies can only fight or retreat", function()
  local g = helpers.game{ stock = 100 }
  local a, _, d = battle(g, { "defender", "defender" }, { "defender", "defender" })
  expect_eq(g:stat(a, "battle"), 1)
  expect_eq(helpers.offered(g, "move", "army"), {})
  expect_eq(helpers.offered(g, "retreat", "army"), {}, "not before a full round: this one began the battle")
  g:pass()
  -- Seat 2's turn: no round is fought on it; its army may retreat (it fought a round)...
  -- but has no movement points (it was at 0 and is in battle, so upkeep gives none back).
  expect_eq(helpers.offered(g, "retreat", "army"), {})
  g:pass()
  -- Seat 1's upkeep stage: the second round. Every defender has been struck twice.
  for _, unit in ipairs(g:contents(a)) do expect_eq(g:stat(unit, "defence"), 1) end
  for _, unit in ipairs(g:contents(d)) do expect_eq(g:stat(unit, "defence"), 1) end
  expect_eq(g:stat(a, "rounds"), 2)
end)

test("retreating costs 1 more than the step, after a full round", function()
  local g = helpers.game{ stock = 100 }
  local _, _, d = battle(g, { "defender", "defender" }, { "defender", "defender" })
  g:pass()
  g:set_stat(d, "mp_left", 2)
  expect_eq(helpers.offered(g, "retreat", "to"), { "D04", "E05" },
    "plain steps (1) and the 1 to retreat; not the mine (2)")
  g:act{ action = "retreat", army = d, to = "E05" }
  expect_eq(g:stat(d, "mp_left"), 0)
  expect_eq(g:stat(d, "battle"), 0)
end)

test("an army on an enemy flag with none of its owner's there takes it, and wins", function()
  local g = helpers.game()
  local raider = helpers.army(g, 1, "K11", { "soldier" }, 4)
  g:act{ action = "move", army = raider, to = "L11" }
  expect_eq(g:over(), true)
  expect_eq(g:outcome().seats, { 1 })
end)

test("a flag with its owner's army on it is not taken until the battle is won", function()
  local g = helpers.game()
  helpers.army(g, 2, "L11", { "defender", "defender", "defender" }, 0)
  local raider = helpers.army(g, 1, "K11", { "soldier" }, 4)
  g:act{ action = "move", army = raider, to = "L11" }
  expect_eq(g:over(), false)
end)
