-- Upkeep and going rogue. The chance an army not fed in full goes rogue is
-- P = (100 / S) * F * (S - 3R) percent; the hook draws it as game.random(1, S * total) against
-- (total - paid) * (S - 3R) hits, so forced numbers land on either side of the line.

-- Plays to seat 1's next upkeep stage with `food`: its base, the only land it owns, is made
-- barren so that the resource stage before adds nothing.
local function upkeep_with(g, food)
  g:set_counter("A00", "barren_until", 1000)
  g:set_resource(1, "food", food)
  g:pass()           -- seat 1's main stage ends (its rogue stage follows)
  g:pass()           -- seat 2's main stage: seat 1's turn begins, with its upkeep stage
end

test("two defenders given 2 of their 4 food go rogue half the time: the 4th of 8 outcomes does", function()
  for _, case in ipairs({ { 4, nil }, { 5, 1 } }) do
    local g = helpers.game()
    local army = helpers.army(g, 1, "E04", { "defender", "defender" })
    g:force_random{ case[1] }
    upkeep_with(g, 2)
    expect_eq(g:forced_random_left(), 0, "one draw, among 8")
    expect_eq(g:piece_owner(army), case[2])
  end
end)

test("a ranger added makes the same shortfall safe: no draw at all", function()
  local g = helpers.game()
  local army = helpers.army(g, 1, "E04", { "defender", "defender", "ranger" })
  upkeep_with(g, 2)
  expect_eq(g:piece_owner(army), 1)
  expect_eq(g:stat(army, "starved"), 1, "unfed: it can only defend this turn")
end)

test("eight soldiers and two rangers given nothing go rogue 40% of the time: 32 of 80 outcomes", function()
  for _, case in ipairs({ { 32, nil }, { 33, 1 } }) do
    local g = helpers.game()
    local army = helpers.army(g, 1, "E04",
      { "soldier", "soldier", "soldier", "soldier", "soldier", "soldier", "soldier", "soldier", "ranger", "ranger" })
    g:force_random{ case[1] }
    upkeep_with(g, 0)
    expect_eq(g:forced_random_left(), 0, "one draw, among 80")
    expect_eq(g:piece_owner(army), case[2])
  end
end)

test("the army nearest the base is fed first; among the equally near, the smallest", function()
  local g = helpers.game()
  -- Next to the base, two soldiers (2 food); four steps away, one soldier (1) and a soldier
  -- with a ranger (1). With 3 food the near one is fed, then the smaller far one.
  local near = helpers.army(g, 1, "B00", { "soldier", "soldier" })
  local far_small = helpers.army(g, 1, "A04", { "soldier" })
  local far_big = helpers.army(g, 1, "E00", { "soldier", "ranger" })
  upkeep_with(g, 3)
  expect_eq(g:stat(near, "starved"), 0)
  expect_eq(g:stat(far_small, "starved"), 0)
  expect_eq(g:stat(far_big, "starved"), 1, "unfed, but its ranger keeps it from going rogue")
  expect_eq(g:piece_owner(far_big), 1)
  expect_eq(g:resource(1, "food"), 0)
end)

test("what cannot feed the next army in full is shared evenly among the rest", function()
  local g = helpers.game()
  -- Three armies of three defenders, each three steps from the base: 6 food owed each, 5 food.
  -- None can be fed in full, so the 5 are shared 2, 2, 1 (the odd ones to the first in order).
  -- Each then goes rogue with (6 - paid) * 3 hits of 18 outcomes: 12, 12 and 15. The forced 13
  -- spares the first two and not the third.
  local a = helpers.army(g, 1, "D00", { "defender", "defender", "defender" })
  local b = helpers.army(g, 1, "A03", { "defender", "defender", "defender" })
  local c = helpers.army(g, 1, "C01", { "defender", "defender", "defender" })
  g:force_random{ 13, 13, 13 }
  upkeep_with(g, 5)
  expect_eq(g:piece_owner(a), 1)
  expect_eq(g:piece_owner(b), 1)
  expect_eq(g:piece_owner(c), nil)
  expect_eq(g:forced_random_left(), 0)
  expect_eq(g:resource(1, "food"), 0)
end)

test("a fed army gets its movement points back; a starved one does not", function()
  local g = helpers.game()
  local fed = helpers.army(g, 1, "B00", { "soldier", "ranger" })
  upkeep_with(g, 5)
  expect_eq(g:stat(fed, "mp_left"), 5, "the soldier's 4, and 1 for the ranger")
end)

test("a unit standing in a structure eats 1 food, a ranger too, and a catapult's crew", function()
  local g = helpers.game()
  local tower = g:place("wood_tower", 1, "B00")
  local ranger = g:place("ranger", 1, "B00")
  g:set_inside(ranger, tower)
  local cart = g:place("catapult", 1, "A01")
  g:set_inside(g:place("soldier", 1, "A01"), cart)
  upkeep_with(g, 3)
  expect_eq(g:resource(1, "food"), 1, "1 for the ranger in the tower, 1 for the crew")
  expect_eq({ g:stat(tower, "starved"), g:stat(cart, "starved") }, { 0, 0 })
  upkeep_with(g, 1)
  -- Both are 1 step from the base, each owing 1 with one unit: the tower, placed first, is fed.
  expect_eq(g:resource(1, "food"), 0)
  expect_eq({ g:stat(tower, "starved"), g:stat(cart, "starved") }, { 0, 1 })
  expect_eq(helpers.offered(g, "haul", "to"), {}, "a starved crew does not move it")
end)
