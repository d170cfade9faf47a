-- Money: $5 at the start of each of a character's turns, $10 for each kill, never below $0.

local game, attack = helpers.game, helpers.attack

test("every character is paid $5 at the start of each of its turns", function()
  local g = scenario.new{ seed = 2, seats = 4, board = helpers.OPEN }
  expect_eq(g:current_seat(), 1)
  expect_eq({ g:resource(1, "money"), g:resource(2, "money"), g:resource(3, "money"), g:resource(4, "money") },
    { 5, 0, 0, 0 }, "the first character's turn has started")
  g:pass()
  expect_eq(g:current_seat(), 2)
  expect_eq({ g:resource(1, "money"), g:resource(2, "money") }, { 5, 5 })
  g:pass()
  g:pass()
  g:pass()
  expect_eq(g:current_seat(), 1)
  expect_eq({ g:resource(1, "money"), g:resource(2, "money"), g:resource(3, "money"), g:resource(4, "money") },
    { 10, 5, 5, 5 })
end)

test("the $5 is paid whatever the character did in its turn", function()
  local g = game{ at = { "A00", "L07" }, money = { 10, 0 } }
  g:act{ action = "buy_weapon", weapon = "shotgun" }
  g:force_dice{ 1 }
  g:act{ action = "move" }
  g:act{ action = "move", to = "B00" }
  -- Bought and moved, with no enemy in range: nothing is left to do, the turn ends by itself.
  expect_eq(g:current_seat(), 2)
  g:pass()
  expect_eq(g:current_seat(), 1)
  expect_eq(g:resource(1, "money"), 5)
end)

test("a kill pays $10", function()
  local g = game{ at = { "A00", "B00", "H07", "L05" }, money = { 7 } }
  g:set_stat(2, "health", 4)
  expect_eq(attack(g, "knife", 2, { 4 }), 4)
  expect_eq(g:alive(2), false)
  expect_eq(g:resource(1, "money"), 17)
  expect_eq(g:resource(2, "money"), 0, "the victim pays nothing")
end)

test("damage that does not kill pays nothing", function()
  local g = game{ at = { "A00", "B00" }, money = { 7 } }
  g:set_stat(2, "health", 5)
  expect_eq(attack(g, "knife", 2, { 4 }), 4)
  expect_eq(g:stat(2, "health"), 1)
  expect_eq(g:alive(2), true)
  expect_eq(g:resource(1, "money"), 7)
end)

test("each kill pays $10: two kills, two rewards", function()
  local g = game{ at = { "A00", "B00", "H07", "C00" } }
  g:set_stat(2, "health", 2)
  g:set_stat(4, "health", 2)
  attack(g, "knife", 2, { 2 })
  expect_eq(g:resource(1, "money"), 10)
  g:set_turn(1)
  attack(g, "pistol", 4, { 1 })
  expect_eq(g:resource(1, "money"), 20)
end)

test("money cannot be spent below $0", function()
  local g = game{ at = { "A00", "L07" }, money = { 0 } }
  expect_eq(helpers.offered(g, "buy_weapon"), {})
  expect_eq(helpers.offered(g, "buy_ammo"), {})
  helpers.refused(g, { action = "buy_ammo", weapon = "pistol" })
  expect_eq(g:resource(1, "money"), 0)
end)
