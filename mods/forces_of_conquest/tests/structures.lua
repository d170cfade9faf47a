-- Structures on Two Shores around seat 1's base (A00): walls on borders, towers, bridges,
-- upgrades, repairs, units standing in them, and attacks on them.

test("a wall on a border: the owner's armies cross it for 1 more, an enemy's not at all", function()
  local g = helpers.game{ stock = 100 }
  g:set_owner("D01", 1)
  g:act{ action = "build_wooden_wall", at = "D01", next = "D02" }
  expect_eq(g:resource(1, "wood"), 90)
  local mine = helpers.army(g, 1, "D01", { "soldier" }, 2)
  expect_eq(helpers.offered(g, "move", "to", function(r) return r.army == mine and r.to == "D02" end), { "D02" },
    "1 for the plain and 1 for the wall")
  g:set_stat(mine, "mp_left", 1)
  expect_eq(helpers.offered(g, "move", "to", function(r) return r.army == mine and r.to == "D02" end), {})
  g:pass()
  local theirs = helpers.army(g, 2, "D02", { "soldier" }, 1)
  expect_eq(helpers.offered(g, "move", "to", function(r) return r.army == theirs end), { "C02", "D03", "E02" },
    "the wall closes the border to seat 2: one point reaches the three other plains, not D01")
end)

test("a bridge lets any unit enter its water for 1, defenders too", function()
  local g = helpers.game{ stock = 100 }
  g:set_owner("F04", 1)
  local defender = helpers.army(g, 1, "F04", { "defender" }, 2)
  expect_eq(helpers.offered(g, "move", "to", function(r) return r.army == defender and r.to == "G04" end), {})
  g:act{ action = "build_bridge", at = "G04" }
  expect_eq(g:resource(1, "wood"), 95)
  expect_eq(g:resource(1, "stone"), 95)
  expect_eq(helpers.offered(g, "move", "to", function(r) return r.army == defender and r.to == "G04" end), { "G04" })
end)

test("a tower goes on the player's empty land, not water, and a structure is upgraded once", function()
  local g = helpers.game{ stock = 100 }
  g:set_owner("D00", 1)
  g:set_owner("G03", 1)
  local places = helpers.offered(g, "build_wood_tower", "at")
  expect_eq(places, { "A00", "D00" }, "its own land only, the base (with the flag) included; G03 is water")
  g:act{ action = "build_wood_tower", at = "D00" }
  local tower = 3   -- after the two flags
  expect_eq(g:stat(tower, "hp"), 15)
  g:act{ action = "upgrade", target = tower }
  expect_eq(g:stat(tower, "hp"), 35)
  expect_eq(g:stat(tower, "protection"), 45)
  expect_eq(g:resource(1, "metal"), 90)
  expect_eq(helpers.offered(g, "upgrade", "target", function(r) return r.target == tower end), {})
end)

test("repairs cost the structure's own price a point, and metal for an upgrade's points", function()
  local g = helpers.game{ stock = 100 }
  g:act{ action = "build_stone_tower", at = "A00" }
  local tower = 3   -- after the two flags
  g:act{ action = "upgrade", target = tower }
  g:set_stat(tower, "hp", 50)
  -- 80 at most: 60 of stone, 20 of the upgrade. From 50: 10 stone points, then metal.
  g:act{ action = "repair", target = tower, points = 15 }
  expect_eq(g:stat(tower, "hp"), 65)
  expect_eq(g:resource(1, "stone"), 100 - 20 - 10)
  expect_eq(g:resource(1, "metal"), 100 - 10 - 5)
end)

test("a unit alone goes into a tower it touches, with its bonus, and shoots from it", function()
  local g = helpers.game{ stock = 100 }
  g:act{ action = "build_wood_tower", at = "A00" }
  local tower = 3   -- after the two flags
  local army, units = helpers.army(g, 1, "A00", { "ranger" }, 6)
  g:act{ action = "garrison", army = army, post = tower }
  expect_eq(g:inside(units[1]), tower)
  expect_eq(g:alive(army), false)
  expect_eq(g:stat(units[1], "attack"), 3, "a ranger's +2 in a structure")
  local enemy, targets = helpers.army(g, 2, "B00", { "defender" })
  g:act{ action = "volley", post = tower, at = "B00" }
  expect_eq(g:alive(targets[1]), false, "3 against a defence of 3")
  expect_eq(g:alive(enemy), false)
end)

test("the units in a structure are struck first, unless its protection takes the blow", function()
  local g = helpers.game{ stock = 100 }
  g:act{ action = "build_wood_tower", at = "A00" }
  local tower = 3   -- after the two flags
  local army, units = helpers.army(g, 1, "A00", { "defender" }, 2)
  g:act{ action = "garrison", army = army, post = tower }
  expect_eq(g:stat(units[1], "defence"), 4, "a defender's +1")
  g:pass()
  local attackers = helpers.army(g, 2, "A00", { "soldier", "soldier" }, 4)
  -- The defender strikes back first (at the first of the two soldiers: 1). Then a roll of 1 to
  -- 100 for each soldier's blow: 30 is within the tower's protection (35), so the tower takes
  -- the first; 90 is not, so the second hits the unit inside (the first of one: 1).
  g:force_random{ 1, 30, 90, 1 }
  g:act{ action = "assault", army = attackers, target = tower }
  expect_eq(g:stat(tower, "hp"), 13)
  expect_eq(g:stat(units[1], "defence"), 2)
end)

test("a structure that falls takes the units standing in it", function()
  local g = helpers.game{ stock = 100 }
  g:act{ action = "build_wood_tower", at = "A00" }
  local tower = 3   -- after the two flags
  local army, units = helpers.army(g, 1, "A00", { "soldier" }, 4)
  g:act{ action = "garrison", army = army, post = tower }
  g:set_stat(tower, "hp", 2)
  g:pass()
  -- The soldier inside strikes first and fells one of the two; the other's blow (a roll of 1,
  -- within the protection) takes the tower's last 2 points.
  local attackers = helpers.army(g, 2, "A00", { "soldier", "soldier" }, 4)
  g:force_random{ 1, 1 }
  g:act{ action = "assault", army = attackers, target = tower }
  expect_eq(g:alive(tower), false)
  expect_eq(g:alive(units[1]), false)
end)
