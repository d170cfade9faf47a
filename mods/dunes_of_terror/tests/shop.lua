-- The shop: weapon prices, what is offered for the money a character has, and one purchase a
-- turn (a weapon or a clip, not both).

local game, offered, refused = helpers.game, helpers.offered, helpers.refused

-- Piece 1 alone on A00 (the enemy parked far away), with `money`.
local function shopper(money)
  return game{ at = { "A00", "L07" }, money = { money } }
end

local PRICES = { shotgun = 10, submachine_gun = 15, assault_rifle = 20, sniper_rifle = 25, machine_gun = 30 }

test("each primary weapon costs its price, bought with exactly that much", function()
  for weapon, price in pairs(PRICES) do
    local g = shopper(price)
    g:act{ action = "buy_weapon", weapon = weapon }
    expect_eq(g:resource(1, "money"), 0, weapon)
    expect_eq(g:items(1), { "knife", "pistol", weapon })
  end
end)

test("only the weapons the character can afford are offered", function()
  local cases = {
    [0] = {},
    [9] = {},
    [10] = { "shotgun" },
    [14] = { "shotgun" },
    [15] = { "shotgun", "submachine_gun" },
    [20] = { "assault_rifle", "shotgun", "submachine_gun" },
    [29] = { "assault_rifle", "shotgun", "sniper_rifle", "submachine_gun" },
    [30] = { "assault_rifle", "machine_gun", "shotgun", "sniper_rifle", "submachine_gun" },
  }
  for money, expected in pairs(cases) do
    expect_eq(offered(shopper(money), "buy_weapon"), expected, "$" .. money)
  end
end)

test("a weapon the character cannot afford is refused and nothing changes", function()
  local g = shopper(24)
  refused(g, { action = "buy_weapon", weapon = "sniper_rifle" }, "weapon")
  expect_eq(g:resource(1, "money"), 24)
  expect_eq(g:items(1), { "knife", "pistol" })
end)

test("the knife and the pistol are not for sale", function()
  local g = shopper(30)
  refused(g, { action = "buy_weapon", weapon = "knife" }, "weapon")
  refused(g, { action = "buy_weapon", weapon = "pistol" }, "weapon")
end)

test("a clip the character cannot afford is not offered", function()
  local g = shopper(2)
  expect_eq(offered(g, "buy_ammo"), {}, "a pistol clip costs $3")
  refused(g, { action = "buy_ammo", weapon = "pistol" }, "weapon")
  g:set_resource(1, "money", 3)
  expect_eq(offered(g, "buy_ammo"), { "pistol" })
  g:give(1, "sniper_rifle")
  g:set_resource(1, "money", 14)
  expect_eq(offered(g, "buy_ammo"), { "pistol" }, "a sniper clip costs $15")
  g:set_resource(1, "money", 15)
  expect_eq(offered(g, "buy_ammo"), { "pistol", "sniper_rifle" })
end)

test("one purchase a turn: after a weapon no clip, after a clip no weapon", function()
  local g = shopper(30)
  g:act{ action = "buy_weapon", weapon = "shotgun" }
  expect_eq(offered(g, "buy_ammo"), {})
  expect_eq(offered(g, "buy_weapon"), {})
  refused(g, { action = "buy_ammo", weapon = "shotgun" }, "buy")
  refused(g, { action = "buy_weapon", weapon = "shotgun" }, "buy")
  expect_eq(g:resource(1, "money"), 20)

  g = shopper(30)
  g:set_charges(1, "pistol", 0)
  g:act{ action = "buy_ammo", weapon = "pistol" }
  refused(g, { action = "buy_ammo", weapon = "pistol" }, "buy")
  refused(g, { action = "buy_weapon", weapon = "shotgun" }, "buy")
  expect_eq(g:charges(1, "pistol"), 6)
  expect_eq(g:resource(1, "money"), 27)
end)

test("the next turn the character may buy again", function()
  local g = game{ at = { "A00", "L07" }, money = { 13, 0 } }
  g:act{ action = "buy_weapon", weapon = "shotgun" }
  g:pass()
  expect_eq(g:current_seat(), 2)
  g:pass()
  expect_eq(g:current_seat(), 1)
  expect_eq(g:resource(1, "money"), 8, "3 left and 5 paid at the start of the turn")
  expect_eq(offered(g, "buy_ammo"), { "pistol", "shotgun" })
  g:act{ action = "buy_ammo", weapon = "shotgun" }
  expect_eq(g:charges(1, "shotgun"), 16)
  expect_eq(g:resource(1, "money"), 3)
end)

test("buying does not use up the move or the attack", function()
  local g = game{ at = { "A00", "C00" }, money = { 10 } }
  g:act{ action = "buy_weapon", weapon = "shotgun" }
  expect_eq(helpers.actions(g), { "attack", "move", "pass" })
  expect_eq(offered(g, "attack"), { "pistol", "shotgun" })
end)
