-- What the variant changes, and that the rest of Dunes of Terror is as before.

-- A row of grass: the police character (piece 1) on A00, the terrorist (piece 2) `steps` tiles
-- east, seat 1 to move with `money`.
local function duel(steps, money)
  local g = scenario.new{ seed = 1, seats = 2, board = { kind = "offset", columns = 8, rows = 2,
    layout = { "gggggggg", "gggggggg" }, legend = { g = "grass" } } }
  g:move_piece(1, "A00")
  g:move_piece(2, string.char(65 + steps) .. "00")
  g:set_resource(1, "money", money or 0)
  g:set_resource(2, "money", 0)
  g:set_turn(1)
  return g
end

-- Fires `weapon` at piece 2 with the die forced to `face`; returns the damage.
local function shoot(g, weapon, faces)
  local before = g:stat(2, "health")
  g:force_dice(faces)
  g:act{ action = "attack", weapon = weapon }
  g:act{ action = "attack", weapon = weapon, target = 2 }
  return before - g:stat(2, "health")
end

test("the primary weapons are cheaper", function()
  local prices = { shotgun = 8, submachine_gun = 12, assault_rifle = 15, sniper_rifle = 20, machine_gun = 24 }
  for weapon, price in pairs(prices) do
    local g = duel(1, price)
    g:act{ action = "buy_weapon", weapon = weapon }
    expect_eq(g:resource(1, "money"), 0, weapon .. " costs $" .. price)
    local poorer = duel(1, price - 1)
    local ok = poorer:try{ action = "buy_weapon", weapon = weapon }
    expect_eq(ok, false, weapon .. " is not sold for $" .. (price - 1))
  end
end)

test("the sniper rifle grazes for 10 on a 3; other faces as in Dunes of Terror", function()
  local expected = { 0, 0, 10, 25, 50, 75 }
  for face = 1, 6 do
    local g = duel(4)
    g:give(1, "sniper_rifle")
    expect_eq(shoot(g, "sniper_rifle", { face }), expected[face], "face " .. face)
  end
end)

test("the other weapons are untouched: the pistol deals twice the die", function()
  local g = duel(2)
  expect_eq(shoot(g, "pistol", { 5 }), 10)
  expect_eq(g:charges(1, "pistol"), 5)
end)

test("the attack's preview follows the new sniper rifle: 4 faces in 6 hit, 160/6 on average", function()
  local g = duel(4)
  g:give(1, "sniper_rifle")
  local figures, margins = g:preview{ action = "attack", weapon = "sniper_rifle" }
  expect_near(figures["Chance to hit"], 4 / 6, 1e-12)
  expect_near(figures["Expected damage at the nearest enemy"], (10 + 25 + 50 + 75) / 6, 1e-12)
  expect_eq(margins["Chance to hit"], 0, "worked out over every face, not sampled")
end)
