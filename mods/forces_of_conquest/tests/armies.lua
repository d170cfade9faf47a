-- Armies: training, movement by the slowest unit and the terrain, combining and splitting,
-- taking over and laying waste. Two Shores around seat 1's base (A00):
--
--        A B C D E F G
--    00  1 1 1 p f f m
--    01  1 1 1 p f p p
--    02  1 1 1 p p f p
--    03  p f f p p p s
--    04  p m p p f p s
--    05  f p n p p p s

test("a unit is trained at the base as an army of its own, moving from the next turn", function()
  local g = helpers.game{ stock = 30 }
  g:act{ action = "train_soldier" }
  expect_eq(g:resource(1, "food"), 20)
  local army = 3
  expect_eq(g:piece_space(army), "A00")
  expect_eq(#g:contents(army), 1)
  expect_eq(g:stat(army, "mp_left"), 0)
  g:act{ action = "train_defender" }
  expect_eq(g:resource(1, "food"), 0)
  for _, record in ipairs(g:legal()) do expect(record.action ~= "train_ranger", "25 food is too dear now") end
  local ok, why = g:try{ action = "train_ranger" }
  expect(not ok and why:find("needs 25 food, 0 in store", 1, true), why)
end)

test("no more than ten armies", function()
  local g = helpers.game{ stock = 1000 }
  for _ = 1, 10 do g:act{ action = "train_soldier" } end
  for _, record in ipairs(g:legal()) do expect(record.action ~= "train_soldier", "an eleventh army") end
  local ok, why = g:try{ action = "train_soldier" }
  expect(not ok and why:find("10 armies already", 1, true), why)
end)

test("an army moves as far as its slowest unit, a ranger adding one", function()
  local g = helpers.game()
  local soldiers = helpers.army(g, 1, "D00", { "soldier" }, 4)
  -- D00 to D01 .. D05 down the plain column: 1 each; E00 is forest (2).
  local reached = helpers.offered(g, "move", "to", function(r) return r.army == soldiers end)
  expect(table.concat(reached, " "):find("D04", 1, true), "four plains down")
  expect(not table.concat(reached, " "):find("D05", 1, true), "not five")
  local band = helpers.army(g, 1, "D01", { "soldier", "ranger" })
  g:set_resource(1, "food", 100)
  g:pass()
  g:pass()
  expect_eq(g:stat(band, "mp_left"), 5)
  local mixed = helpers.army(g, 1, "D02", { "defender", "ranger" })
  g:set_resource(1, "food", 100)
  g:pass()
  g:pass()
  expect_eq(g:stat(mixed, "mp_left"), 3, "the defender's 2, and 1 for the ranger")
end)

test("each unit pays its own price for the land, and the army pays its dearest", function()
  -- G00 is a mountain, next to G01 (plain): a soldier pays 4 to enter it, a ranger 2.
  local reaches = function(units, mp)
    local g = helpers.game()
    local army = helpers.army(g, 1, "G01", units, mp)
    return #helpers.offered(g, "move", "to", function(r) return r.army == army and r.to == "G00" end) == 1
  end
  expect_eq(reaches({ "soldier" }, 3), false)
  expect_eq(reaches({ "soldier" }, 4), true)
  expect_eq(reaches({ "ranger" }, 2), true)
  expect_eq(reaches({ "soldier", "ranger" }, 3), false, "the soldier's 4, not the ranger's 2")
  expect_eq(reaches({ "soldier", "ranger" }, 4), true)
end)

test("soldiers cannot enter deep water, defenders no water at all, rangers swim", function()
  local g = helpers.game()
  -- Around the lake: G03 shallow, G04 shallow, H04 deep (row 04 is "pmppfpsdspff").
  local soldier = helpers.army(g, 1, "F04", { "soldier" }, 4)
  local defender = helpers.army(g, 1, "F03", { "defender" }, 2)
  local ranger = helpers.army(g, 1, "F05", { "ranger" }, 6)
  local reach = function(army)
    return table.concat(helpers.offered(g, "move", "to", function(r) return r.army == army end), " ")
  end
  expect(reach(soldier):find("G04", 1, true), "shallow at 3")
  expect(not reach(soldier):find("H04", 1, true), "no deep water for soldiers")
  expect(not reach(defender):find("G03", 1, true), "no water for defenders")
  expect(reach(ranger):find("H04", 1, true), "rangers swim")
end)

test("a move spends the way's cost, and an army out of movement points defends", function()
  local g = helpers.game()
  local army = helpers.army(g, 1, "D00", { "soldier" }, 4)
  g:act{ action = "move", army = army, to = "D02" }
  expect_eq(g:stat(army, "mp_left"), 2)
  g:act{ action = "move", army = army, to = "D04" }
  expect_eq(g:stat(army, "mp_left"), 0)
  expect_eq(helpers.offered(g, "move", "to", function(r) return r.army == army end), {})
end)

test("taking over costs 1 for nobody's land, 2 for an enemy's, and ends the army's turn", function()
  local g = helpers.game()
  local army = helpers.army(g, 1, "D01", { "soldier" }, 4)
  g:act{ action = "take_over", army = army }
  expect_eq(g:owner("D01"), 1)
  expect_eq(g:stat(army, "mp_left"), 3)
  expect_eq(helpers.offered(g, "move", "to", function(r) return r.army == army end), {}, "its turn is over")
  local raider = helpers.army(g, 1, "D02", { "soldier" }, 1)
  g:set_owner("D02", 2)
  expect_eq(helpers.offered(g, "take_over", "army", function(r) return r.army == raider end), {}, "1 is not enough")
  g:set_stat(raider, "mp_left", 2)
  g:act{ action = "take_over", army = raider }
  expect_eq(g:owner("D02"), 1)
end)

test("laying waste to a forest leaves it barren for three rounds, with a path 1 cheaper", function()
  local g = helpers.game()
  local army = helpers.army(g, 1, "E00", { "soldier" }, 4)
  g:act{ action = "attack_land", army = army }
  expect_eq(g:counter("E00", "barren_until"), g:turn() + 6)
  local walker = helpers.army(g, 1, "D00", { "soldier" }, 1)
  expect_eq(helpers.offered(g, "move", "to", function(r) return r.army == walker and r.to == "E00" end), { "E00" },
    "the forest costs a soldier 1 now, not 2")
end)

test("the board counts down the turns a territory stays barren", function()
  local g = helpers.game()
  local army = helpers.army(g, 1, "E00", { "soldier" }, 4)
  g:act{ action = "attack_land", army = army }
  -- This turn and the six after it (three rounds of two players).
  expect_eq(g:counter("E00", "waste"), 7)
  local left = {}
  for _ = 1, 7 do
    g:pass()
    left[#left + 1] = g:counter("E00", "waste")
  end
  expect_eq(left, { 6, 5, 4, 3, 2, 1, 0 })
end)

test("combining takes the smaller movement points, and at most ten units and two rangers", function()
  local g = helpers.game()
  local a = helpers.army(g, 1, "D01", { "soldier", "soldier" }, 4)
  local b = helpers.army(g, 1, "D02", { "soldier" }, 0)
  g:act{ action = "merge", army = a, into = b }
  expect_eq(g:alive(a), false)
  expect_eq(#g:contents(b), 3)
  expect_eq(g:stat(b, "mp_left"), 0)
  -- A ranger between b (three soldiers) and an army of two rangers joins b, not the rangers.
  helpers.army(g, 1, "D04", { "ranger", "ranger" }, 4)
  local third = helpers.army(g, 1, "D03", { "ranger" }, 4)
  expect_eq(helpers.offered(g, "merge", "into", function(r) return r.army == third end), { tostring(b) })
end)

test("splitting sends one unit to the next territory, paying its step; the rest keep their points", function()
  local g = helpers.game()
  local army, units = helpers.army(g, 1, "D01", { "soldier", "ranger" }, 4)
  -- To E01 (forest): the ranger pays 1, the soldier 2.
  g:act{ action = "send_unit", army = army, unit = units[1], to = "E01" }
  expect_eq(g:inside(units[1]) ~= army, true)
  local new = g:inside(units[1])
  expect_eq(g:piece_space(new), "E01")
  expect_eq(g:stat(new, "mp_left"), 2)
  expect_eq(g:stat(army, "mp_left"), 4)
end)

test("a unit split off steps onto a bridge for 1 as any walk does, a defender too, never past an enemy wall", function()
  local g = helpers.game{ stock = 100 }
  g:set_owner("F04", 1)
  local army, units = helpers.army(g, 1, "F04", { "soldier", "defender" }, 2)
  local function to_of(unit) return helpers.offered(g, "send_unit", "to", function(r) return r.unit == unit end) end
  expect_eq(to_of(units[2]), { "E04", "F03", "F05" }, "no water for a defender; G04 is shallow")
  g:act{ action = "build_bridge", at = "G04" }
  expect_eq(to_of(units[2]), { "E04", "F03", "F05", "G04" })
  g:place_between("stone_wall", 2, "F04", "F05")
  expect_eq(to_of(units[2]), { "E04", "F03", "G04" }, "seat 2's wall closes F05")
  g:act{ action = "send_unit", army = army, unit = units[2], to = "G04" }
  expect_eq(g:stat(g:inside(units[2]), "mp_left"), 1, "2 less the bridge's 1")
end)
