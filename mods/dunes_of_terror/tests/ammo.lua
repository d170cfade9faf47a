-- Ammunition: what everyone starts with, bullets used per attack (one per die fired; the
-- knife uses none), weapons without ammunition not offered, bullets spent on a cancelled
-- attack, and clips bought (one clip added, the maximum, new weapons with one clip).

local game, attack, offered, refused = helpers.game, helpers.attack, helpers.offered, helpers.refused

-- Piece 1 on A00 and the enemy, piece 2, on B00 (one step: every weapon reaches it).
local function close(money)
  return game{ at = { "A00", "B00" }, money = { money or 0 } }
end

test("every character starts with a knife and a pistol with one clip of 6 bullets", function()
  local g = scenario.new{ seed = 5, seats = 4, board = helpers.OPEN }
  for piece = 1, 4 do
    expect_eq(g:items(piece), { "knife", "pistol" }, "piece " .. piece)
    expect_eq(g:charges(piece, "pistol"), 6, "piece " .. piece)
    expect_eq(g:stat(piece, "health"), 100, "piece " .. piece)
  end
end)

test("each attack uses one bullet per die fired; the knife uses none", function()
  -- weapon, faces, bullets before, bullets after
  local cases = {
    { "pistol", { 1 }, 6, 5 },
    { "shotgun", { 1 }, 8, 7 },
    { "submachine_gun", { 1, 1 }, 10, 8 },
    { "assault_rifle", { 1, 1, 1 }, 15, 12 },
    { "sniper_rifle", { 1 }, 5, 4 },
    { "machine_gun", { 1, 1, 1, 1, 1 }, 20, 15 },
  }
  for _, case in ipairs(cases) do
    local weapon, faces, before, after = case[1], case[2], case[3], case[4]
    local g = close()
    if weapon ~= "pistol" then g:give(1, weapon) end
    expect_eq(g:charges(1, weapon), before, weapon .. " comes with one clip")
    attack(g, weapon, 2, faces)
    expect_eq(g:charges(1, weapon), after, weapon)
    expect_eq(g:forced_left(), 0, weapon .. ": one die per bullet")
  end
  local g = close()
  expect_eq(attack(g, "knife", 2, { 3 }), 3)
  expect_eq(g:charges(1, "knife"), 0)
  expect_eq(g:charges(1, "pistol"), 6, "the knife fires no pistol bullets")
end)

test("a weapon out of ammunition is not offered", function()
  local g = close()
  g:give(1, "shotgun")
  g:set_charges(1, "shotgun", 0)
  g:set_charges(1, "pistol", 0)
  expect_eq(offered(g, "attack"), { "knife" })
  refused(g, { action = "attack", weapon = "pistol" }, "weapon")
  refused(g, { action = "attack", weapon = "shotgun" }, "weapon")
  -- Two steps away the knife does not reach either: no attack at all.
  g:move_piece(2, "C00")
  expect_eq(offered(g, "attack"), {})
  g:set_charges(1, "pistol", 1)
  expect_eq(offered(g, "attack"), { "pistol" }, "one bullet is enough")
end)

test("the last bullet can be fired; then the weapon is no longer offered", function()
  local g = close()
  g:set_charges(1, "pistol", 1)
  expect_eq(attack(g, "pistol", 2, { 4 }), 8)
  expect_eq(g:charges(1, "pistol"), 0)
  g:set_turn(1)
  expect_eq(offered(g, "attack"), { "knife" })
end)

test("cancelling an attack after the roll still spends the bullets and the attack", function()
  local g = close()
  g:give(1, "submachine_gun")
  g:force_dice{ 6, 6 }
  g:act{ action = "attack", weapon = "submachine_gun" }
  expect_eq(g:charges(1, "submachine_gun"), 8, "fired on the roll")
  g:act{ action = "cancel" }
  expect_eq(g:awaiting(), nil)
  expect_eq(g:charges(1, "submachine_gun"), 8, "not given back")
  expect_eq(g:stat(2, "health"), 100, "no damage")
  expect_eq(offered(g, "attack"), {}, "no second attack this turn")
  refused(g, { action = "attack", weapon = "knife" }, "attack")
  -- The next turn it may attack again.
  g:set_turn(1)
  expect_eq(offered(g, "attack"), { "knife", "pistol", "submachine_gun" })
end)

test("buying a clip adds one clip to the weapon and costs the clip price", function()
  -- weapon, bullets before, bullets after, clip price
  local cases = {
    { "pistol", 2, 8, 3 },
    { "shotgun", 3, 11, 5 },
    { "submachine_gun", 0, 10, 5 },
    { "assault_rifle", 15, 30, 10 },
    { "sniper_rifle", 1, 6, 15 },
    { "machine_gun", 20, 40, 10 },
  }
  for _, case in ipairs(cases) do
    local weapon, before, after, price = case[1], case[2], case[3], case[4]
    local g = close(20)
    if weapon ~= "pistol" then g:give(1, weapon) end
    g:set_charges(1, weapon, before)
    g:act{ action = "buy_ammo", weapon = weapon }
    expect_eq(g:charges(1, weapon), after, weapon)
    expect_eq(g:resource(1, "money"), 20 - price, weapon .. ": price")
    if weapon ~= "pistol" then expect_eq(g:charges(1, "pistol"), 6, weapon .. ": the pistol is not refilled") end
  end
end)

test("a clip beyond the maximum: the excess is lost and the full price paid", function()
  -- weapon, bullets before, maximum, clip price
  local cases = {
    { "pistol", 9, 12, 3 },
    { "shotgun", 16, 16, 5 },
    { "submachine_gun", 15, 20, 5 },
    { "assault_rifle", 20, 30, 10 },
    { "sniper_rifle", 6, 10, 15 },
    { "machine_gun", 50, 60, 10 },
  }
  for _, case in ipairs(cases) do
    local weapon, before, maximum, price = case[1], case[2], case[3], case[4]
    local g = close(30)
    if weapon ~= "pistol" then g:give(1, weapon) end
    g:set_charges(1, weapon, before)
    g:act{ action = "buy_ammo", weapon = weapon }
    expect_eq(g:charges(1, weapon), maximum, weapon)
    expect_eq(g:resource(1, "money"), 30 - price, weapon .. ": the full price")
  end
end)

test("the pistol holds at most 12: a clip on 7 bullets gives 12", function()
  local g = close(3)
  g:set_charges(1, "pistol", 7)
  g:act{ action = "buy_ammo", weapon = "pistol" }
  expect_eq(g:charges(1, "pistol"), 12)
  expect_eq(g:resource(1, "money"), 0)
end)

test("clips are offered for the pistol and the primary weapon, never for the knife", function()
  local g = close(20)
  expect_eq(offered(g, "buy_ammo"), { "pistol" }, "no primary weapon yet")
  refused(g, { action = "buy_ammo", weapon = "knife" }, "weapon")
  g:give(1, "assault_rifle")
  expect_eq(offered(g, "buy_ammo"), { "assault_rifle", "pistol" })
end)

test("a new primary weapon comes with one clip and replaces the old one and its bullets", function()
  local g = close(20)
  g:give(1, "shotgun")
  g:set_charges(1, "shotgun", 13)
  g:act{ action = "buy_weapon", weapon = "submachine_gun" }
  expect_eq(g:items(1), { "knife", "pistol", "submachine_gun" })
  expect_eq(g:charges(1, "submachine_gun"), 10, "one clip")
  expect_eq(g:charges(1, "pistol"), 6, "the pistol's bullets stay")
  expect_eq(g:resource(1, "money"), 5)
  expect_error(function() return g:charges(1, "shotgun") end, "holds no `shotgun`")
end)

test("buying the primary weapon one holds again gives a fresh single clip", function()
  local g = close(10)
  g:give(1, "shotgun")
  g:set_charges(1, "shotgun", 16)
  g:act{ action = "buy_weapon", weapon = "shotgun" }
  expect_eq(g:items(1), { "knife", "pistol", "shotgun" })
  expect_eq(g:charges(1, "shotgun"), 8, "the 16 shells held are discarded")
  expect_eq(g:resource(1, "money"), 0)
end)

test("every primary weapon bought comes with exactly one clip", function()
  local clips = { shotgun = 8, submachine_gun = 10, assault_rifle = 15, sniper_rifle = 5, machine_gun = 20 }
  for weapon, clip in pairs(clips) do
    local g = close(30)
    g:act{ action = "buy_weapon", weapon = weapon }
    expect_eq(g:items(1), { "knife", "pistol", weapon })
    expect_eq(g:charges(1, weapon), clip, weapon)
  end
end)
