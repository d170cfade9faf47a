-- Moats, next to seat 1's base: D01 is a plain between C01 (a plain of the base range), D00,
-- E01 (a forest) and D02; E00 is a forest; F03/G03 are the lake's shore (see _helpers.lua).

local offered, price, refused = helpers.offered, helpers.price, helpers.refused

test("a moat is dug in a barren territory of the player's with one of its walls on a border, for 10 food", function()
  local g = helpers.game{ stock = 100 }
  g:set_owner("D01", 1)
  g:place_between("wooden_wall", 1, "D01", "D02")
  expect_eq(offered(g, "dig_moat", "at"), {}, "D01 is not barren")
  local army = helpers.army(g, 1, "D01", { "soldier" }, 4)
  g:act{ action = "attack_land", army = army }
  expect_eq(offered(g, "dig_moat", "at"), {}, "barren now, but the army stands on it")
  g:remove(army)
  expect_eq(offered(g, "dig_moat", "at"), { "D01" })
  g:act{ action = "dig_moat", at = "D01" }
  expect_eq(g:resource(1, "food"), 90)
  expect_eq(g:terrain("D01"), "shallow")
  expect_eq(g:counter("D01", "moat"), 1)
  expect_eq(g:counter("D01", "barren_until"), 0, "flooded: barren no more")
  expect_eq(g:owner("D01"), 1)
end)

test("a moat is shallow water for good: each unit pays to enter it what it pays to wade", function()
  local g = helpers.game()
  helpers.moat(g, "D01", "D02")
  -- C01 and F03 are plains, D01 the moat and G03 the lake's shallow water, with no wall between.
  local wade = {}
  local armies = { { "soldier" }, { "ranger" }, { "defender" }, { "soldier", "ranger" }, { "ranger", "defender" } }
  for _, units in ipairs(armies) do
    local name = table.concat(units, "+")
    wade[name] = price(g, 1, "C01", "D01", units)
    expect_eq(wade[name], price(g, 1, "F03", "G03", units), name .. ": the moat as the lake's shallow water")
  end
  expect_eq(wade, { soldier = 3, ranger = 1, ["soldier+ranger"] = 3 }, "defenders cannot enter it")
  for _ = 1, 10 do g:pass() end
  expect_eq(g:terrain("D01"), "shallow", "five rounds later")
  expect_eq(price(g, 1, "C01", "D01", { "soldier" }), 3)
  expect_eq(price(g, 1, "C01", "D01", { "defender" }), nil)
end)

test("no moat on land not barren, without the player's wall, with something on it, or not the player's", function()
  -- Seat 1's D01, barren, with seat 1's wall to D02: a moat may be dug; each case takes one
  -- thing away.
  local function site(change)
    local g = helpers.game{ stock = 100 }
    g:set_owner("D01", 1)
    g:set_counter("D01", "barren_until", g:turn() + 6)
    local wall = g:place_between("wooden_wall", 1, "D01", "D02")
    change(g, wall)
    return g
  end
  local g = site(function() end)
  expect_eq(offered(g, "dig_moat", "at"), { "D01" }, "the site as it is")
  local cases = {
    ["not barren"] = function(h) h:set_counter("D01", "barren_until", 0) end,
    ["no wall"] = function(h, wall) h:remove(wall) end,
    ["only seat 2's wall"] = function(h, wall)
      h:remove(wall)
      h:place_between("wooden_wall", 2, "D01", "D02")
    end,
    ["an army on it"] = function(h) helpers.army(h, 2, "D01", { "soldier" }) end,
    ["a tower on it"] = function(h) h:place("wood_tower", 1, "D01") end,
    ["seat 2's land"] = function(h) h:set_owner("D01", 2) end,
    ["9 food"] = function(h) h:set_resource(1, "food", 9) end,
    ["a drawbridge on a border"] = function(h) h:place_between("wooden_drawbridge", 1, "D01", "C01") end,
  }
  for case, change in pairs(cases) do
    g = site(change)
    expect_eq(offered(g, "dig_moat", "at"), {}, case)
    refused(g, { action = "dig_moat", at = "D01" }, case)
  end
end)

test("no moat where there is water already, nor a second one", function()
  local g = helpers.game{ stock = 100 }
  g:set_owner("G03", 1)
  g:set_counter("G03", "barren_until", g:turn() + 6)
  g:place_between("wooden_wall", 1, "G03", "F03")
  refused(g, { action = "dig_moat", at = "G03" }, "the lake's shallow water, laid waste")
  helpers.moat(g, "D01", "D02")
  g:set_counter("D01", "barren_until", g:turn() + 6)
  refused(g, { action = "dig_moat", at = "D01" }, "a moat already")
end)

test("a moat yields what shallow water yields, nothing of the land it was", function()
  -- E00 is a forest (1 to 4 wood a turn); as a moat it yields 0 or 1 food.
  local g = helpers.game()
  helpers.moat(g, "E00", "D00")
  g:pass()
  g:pass()
  expect_eq(g:current_seat(), 1)
  expect_eq(g:resource(1, "wood"), 0, "no wood from the forest it was")
  local food = g:resource(1, "food")
  expect(food >= 1 and food <= 5, "the base's 1 to 4 food and the moat's 0 to 1: " .. food)
end)

test("a moat takes a bridge, never a tower", function()
  local g = helpers.game{ stock = 100 }
  helpers.moat(g, "D01", "D02")
  expect_eq(offered(g, "build_wood_tower", "at"), { "A00" }, "not on the moat")
  expect(table.concat(offered(g, "build_bridge", "at"), " "):find("D01", 1, true), "a bridge over the moat")
  g:act{ action = "build_bridge", at = "D01" }
  expect_eq(price(g, 1, "C01", "D01", { "defender" }), 1, "over the bridge, defenders too")
end)

test("a moat is never laid waste", function()
  local g = helpers.game()
  helpers.moat(g, "D01", "D02")
  local army = helpers.army(g, 1, "D01", { "soldier" }, 4)
  expect_eq(offered(g, "attack_land", "army", function(r) return r.army == army end), {})
  refused(g, { action = "attack_land", army = army })
  local elsewhere = helpers.army(g, 1, "D03", { "soldier" }, 4)
  expect_eq(offered(g, "attack_land", "army", function(r) return r.army == elsewhere end), { tostring(elsewhere) })
end)

test("a unit splits off into a moat and armies combine on one, paying what shallow water costs", function()
  local g = helpers.game()
  helpers.moat(g, "D01", "D02")
  local band, units = helpers.army(g, 1, "C01", { "soldier", "soldier" }, 4)
  local sent = offered(g, "send_unit", "to", function(r) return r.army == band and r.unit == units[1] end)
  expect_eq(sent, { "B01", "C00", "C02", "D01" }, "a soldier wades into the moat for 3 of its 4")
  local guards, guard = helpers.army(g, 1, "C00", { "defender", "soldier" }, 4)
  sent = offered(g, "send_unit", "to", function(r) return r.army == guards and r.unit == guard[1] end)
  expect(not table.concat(sent, " "):find("D01", 1, true), "a defender cannot enter it: " .. table.concat(sent, " "))
  local wader = helpers.army(g, 1, "D01", { "soldier" }, 4)
  g:act{ action = "merge", army = band, into = wader }
  expect_eq(#g:contents(wader), 3, "the two soldiers from C01 joined the one on the moat")
end)

test("a retreat and a rogue army's march pay for a moat as a move does", function()
  local g = helpers.game()
  helpers.moat(g, "D01", "D02")
  -- Seat 1's soldier in a battle on C01 that began a turn ago: a retreat costs 1 and the step.
  local army = helpers.army(g, 1, "C01", { "soldier" }, 3)
  g:set_stat(army, "battle", 1)
  g:set_stat(army, "rounds", 1)
  expect_eq(offered(g, "retreat", "to", function(r) return r.army == army and r.to == "D01" end), {}, "1 and 3 > 3")
  g:set_stat(army, "mp_left", 4)
  expect_eq(offered(g, "retreat", "to", function(r) return r.army == army and r.to == "D01" end), { "D01" })
  g:remove(army)
  -- Seat 1's army stands on the moat; rogue armies acting on seat 1's turns wait on D00 and E01.
  local target = helpers.army(g, 1, "D01", { "soldier" })
  local defenders = helpers.army(g, nil, "D00", { "defender" })
  g:set_stat(defenders, "acts_on", 1)
  g:pass()
  expect_eq(g:stat(target, "battle"), 0, "a rogue defender cannot wade in to fight")
  expect(g:piece_space(defenders) ~= "D01")
  local soldiers = helpers.army(g, nil, "E01", { "soldier", "soldier", "soldier" })
  g:set_stat(soldiers, "acts_on", 1)
  g:pass()
  g:pass()
  expect_eq(g:piece_space(soldiers), "D01", "rogue soldiers wade in for 3 of their 4")
  expect_eq(g:alive(target), false, "and beat seat 1's soldier in the battle's first round")
end)

test("a catapult does not roll into a moat", function()
  local g = helpers.game()
  helpers.moat(g, "D01", "D02")
  local cart = g:place("catapult", 1, "C01")
  g:set_inside(g:place("soldier", 1, "C01"), cart)
  g:set_stat(cart, "mp_left", 2)
  local rolls = offered(g, "haul", "to", function(r) return r.cart == cart end)
  expect(not table.concat(rolls, " "):find("D01", 1, true), "not onto the moat: " .. table.concat(rolls, " "))
  expect(table.concat(rolls, " "):find("C02", 1, true), "onto the plain beside it")
end)

test("a moat makes the shallow water a drawbridge needs", function()
  local g = helpers.game{ stock = 100 }
  local wall = helpers.moat(g, "D01", "D02")
  expect_eq(offered(g, "build_drawbridge", "wall"), { tostring(wall) }, "between the moat and the plain D02")
  g:act{ action = "build_drawbridge", wall = wall }
  g:act{ action = "open_drawbridge", gate = helpers.between(g, "D01", "D02") }
  expect_eq(price(g, 1, "D02", "D01", { "soldier" }), 1, "over the open drawbridge onto the moat, not 3")
  expect_eq(price(g, 1, "D02", "D01", { "defender" }), 1, "defenders too")
  expect_eq(price(g, 1, "D00", "D01", { "soldier" }), 1, "and from any side")
end)
