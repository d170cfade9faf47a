-- The catapult on Two Shores: built at the base, crewed to move over plain and barren land,
-- firing once a turn at the next territories over walls, with the ammunition chosen per shot.
-- Around D01 (plain): C01 and D00, D02, D03, E02 are plain, E00 and E01 forest.

-- A catapult of seat 1 on `at`, crewed by a soldier unless `crew` is false; gives its id and
-- its crew's.
local function catapult(g, at, crew)
  local cart = g:place("catapult", 1, at)
  local soldier
  if crew ~= false then
    soldier = g:place("soldier", 1, at)
    g:set_inside(soldier, cart)
  end
  g:set_stat(cart, "mp_left", 2)
  return cart, soldier
end

-- Offers of a shot of stone (one offer per target for each ammunition).
local function stone(record) return record.ammo == "stone_shot" end

test("a catapult is built at the base for 15 wood, 5 stone and 5 metal, and a unit alone crews it", function()
  local g = helpers.game{ stock = 20 }
  g:act{ action = "build_catapult" }
  expect_eq({ g:resource(1, "wood"), g:resource(1, "stone"), g:resource(1, "metal") }, { 5, 15, 15 })
  local cart = 3   -- after the two flags
  expect_eq({ g:piece_space(cart), g:stat(cart, "hp"), g:stat(cart, "mp_left") }, { "A00", 10, 0 })
  expect_eq(helpers.offered(g, "build_catapult", "action"), {}, "5 wood left")
  local army, units = helpers.army(g, 1, "A00", { "ranger" }, 6)
  g:act{ action = "garrison", army = army, post = cart }
  expect_eq(g:contents(cart), units)
  expect_eq(helpers.offered(g, "haul", "to"), {}, "no movement points until its next turn")
end)

test("crewed, it rolls 2 a turn over plain and barren land, never into forest or water", function()
  local g = helpers.game{ stock = 0 }
  g:set_owner("D01", 1)
  local cart = catapult(g, "D01")
  expect_eq(helpers.offered(g, "haul", "to"), { "B01", "C00", "C01", "C02", "D00", "D02", "D03", "E02" })
  -- A barren forest costs it 1, like any barren land.
  g:set_counter("E01", "barren_until", 1000)
  expect_eq(helpers.offered(g, "haul", "to"), { "B01", "C00", "C01", "C02", "D00", "D02", "D03", "E01", "E02", "F01" })
  g:act{ action = "haul", cart = cart, to = "E01" }
  expect_eq(g:stat(cart, "mp_left"), 1)
  expect_eq(g:piece_space(g:contents(cart)[1]), "E01", "the crew rides along")
end)

test("without its crew it does not move, and an enemy army stops it", function()
  local g = helpers.game{ stock = 0 }
  local empty = catapult(g, "D01", false)
  expect_eq(helpers.offered(g, "haul", "to", function(r) return r.cart == empty end), {})
  local cart = catapult(g, "D03")
  helpers.army(g, 2, "D02", { "soldier" })
  local ends = helpers.offered(g, "haul", "to", function(r) return r.cart == cart end)
  expect_eq(ends, { "C04", "D04", "D05", "E02", "E03", "F03" }, "not onto D02 (E02 round it, by E03); C03 is forest")
end)

test("a shot of stone strikes an enemy unit next door for 5, once a turn", function()
  local g = helpers.game{ stock = 10 }
  local cart = catapult(g, "D01")
  local enemy, units = helpers.army(g, 2, "D02", { "defender", "soldier" })
  expect_eq(helpers.offered(g, "fire", "target", stone), { tostring(enemy) }, "only the army next door")
  -- The unit hit is drawn: the first of the two, the defender (3 defence).
  g:force_random{ 1 }
  g:act{ action = "fire", cart = cart, target = enemy, ammo = "stone_shot" }
  expect_eq(g:alive(units[1]), false)
  expect_eq(g:stat(units[2], "defence"), 2)
  expect_eq(g:resource(1, "stone"), 9)
  expect_eq(helpers.offered(g, "fire", "target", stone), {}, "once a turn")
end)

test("each ammunition strikes as the text's table says and costs one of its kind", function()
  local table_of_shots = {
    { "wood_shot", "wood", 1 }, { "food_shot", "food", 2 }, { "stone_shot", "stone", 5 }, { "metal_shot", "metal", 10 },
  }
  for _, case in ipairs(table_of_shots) do
    local g = helpers.game{ stock = 1 }
    local cart = catapult(g, "D01")
    local tower = g:place("stone_tower", 2, "D02")
    g:act{ action = "fire", cart = cart, target = tower, ammo = case[1] }
    expect_eq(g:stat(tower, "hp"), 60 - case[3], case[1])
    expect_eq(g:resource(1, case[2]), 0, case[1])
  end
end)

test("an enemy wall the shot flies over takes it with its protection as the chance", function()
  local g = helpers.game{ stock = 10 }
  local cart = catapult(g, "D01")
  local wall = g:place_between("stone_wall", 2, "D01", "D02")
  local enemy, units = helpers.army(g, 2, "D02", { "soldier" })
  -- 50 is within the stone wall's 50%: the wall takes the 10.
  g:force_random{ 50 }
  g:act{ action = "fire", cart = cart, target = enemy, ammo = "metal_shot" }
  expect_eq(g:stat(wall, "hp"), 20)
  expect_eq(g:alive(units[1]), true)
  g:pass()
  g:pass()
  -- 51 is not: the shot lands on the soldier (the one unit: 1).
  g:set_stat(cart, "done", 0)
  g:force_random{ 51, 1 }
  g:act{ action = "fire", cart = cart, target = enemy, ammo = "metal_shot" }
  expect_eq(g:stat(wall, "hp"), 20)
  expect_eq(g:alive(units[1]), false)
  expect_eq(g:alive(enemy), false, "an army with no units left is gone")
end)

test("an enemy tower where the shot lands may take it too", function()
  local g = helpers.game{ stock = 10 }
  local cart = catapult(g, "D01")
  local tower = g:place("wood_tower", 2, "D02")
  local enemy, units = helpers.army(g, 2, "D02", { "soldier" })
  -- 35 is within the wooden tower's 35%.
  g:force_random{ 35 }
  g:act{ action = "fire", cart = cart, target = enemy, ammo = "stone_shot" }
  expect_eq(g:stat(tower, "hp"), 10)
  expect_eq(g:alive(units[1]), true)
end)

test("a wall is a target itself, over no other, and falls with the units standing in it", function()
  local g = helpers.game{ stock = 10 }
  local cart = catapult(g, "D01")
  local wall = g:place_between("wooden_wall", 2, "D01", "D02")
  local guard = g:place("soldier", 2, "D02")
  g:set_inside(guard, wall)
  local far_wall = g:place_between("wooden_wall", 2, "D02", "D03")
  local targets = helpers.offered(g, "fire", "target", stone)
  expect_eq(targets, { tostring(wall), tostring(far_wall) }, "both touch D02, next to the catapult")
  g:act{ action = "fire", cart = cart, target = wall, ammo = "metal_shot" }
  expect_eq(g:alive(wall), false)
  expect_eq(g:alive(guard), false)
end)

test("beside an army of its owner's, an empty catapult fires, and may fling one of its units", function()
  local g = helpers.game{ stock = 0 }
  local cart = catapult(g, "D01", false)
  expect_eq(helpers.offered(g, "fire", "target"), {}, "no crew, no army beside it")
  local army, mine = helpers.army(g, 1, "D01", { "soldier", "soldier" })
  local _, theirs = helpers.army(g, 2, "D02", { "soldier" })
  expect_eq(helpers.offered(g, "fire", "ammo"), { "unit_shot" }, "no resources: only a unit to fling")
  -- The unit flung is drawn among the army's (the second), then the unit hit (the only one).
  g:force_random{ 2, 1 }
  g:act{ action = "fire", cart = cart, target = g:inside(theirs[1]), ammo = "unit_shot" }
  expect_eq(g:alive(theirs[1]), false, "2 against a soldier's 2")
  expect_eq({ g:alive(mine[1]), g:alive(mine[2]) }, { true, false }, "the flung unit is lost")
  expect_eq(g:contents(army), { mine[1] })
end)

test("with its crew fed it gets its 2 movement points each turn, empty none", function()
  local g = helpers.game{ stock = 0 }
  local cart = catapult(g, "D01")
  local empty = catapult(g, "D03", false)
  g:set_stat(cart, "mp_left", 0)
  g:pass()
  g:pass()
  -- Seat 1's next turn began: its resource and upkeep stages have run.
  expect_eq(g:stat(cart, "mp_left"), 2)
  expect_eq(g:stat(empty, "mp_left"), 0)
end)

test("a catapult is mended for 1 wood, 1 stone and 1 metal a point", function()
  local g = helpers.game{ stock = 10 }
  local cart = catapult(g, "A00")
  g:set_stat(cart, "hp", 4)
  g:act{ action = "repair", target = cart, points = 3 }
  expect_eq(g:stat(cart, "hp"), 7)
  expect_eq({ g:resource(1, "wood"), g:resource(1, "stone"), g:resource(1, "metal") }, { 7, 7, 7 })
end)

test("a bridge carries a catapult over water for 1, as it does any unit", function()
  local g = helpers.game{ stock = 100 }
  g:set_owner("F04", 1)
  local cart = catapult(g, "F04")
  expect_eq(helpers.offered(g, "haul", "to", function(r) return r.to == "G04" end), {}, "shallow water")
  g:act{ action = "build_bridge", at = "G04" }
  expect_eq(helpers.offered(g, "haul", "to", function(r) return r.to == "G04" end), { "G04" })
  g:act{ action = "haul", cart = cart, to = "G04" }
  expect_eq(g:stat(cart, "mp_left"), 1)
end)
