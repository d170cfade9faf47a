-- The shop before each match: purchase turns go round from red, one item a turn, until every
-- team has passed in a row; weapons from the unit's own deck only, armour and equipment for
-- anyone, three items a unit at most. An item's figures are added to its unit's.

local h = helpers

-- The items the shop offers `unit`, each once, sorted.
local function offered(g, unit)
  local out = {}
  for _, record in ipairs(g:legal()) do
    if record.action == "buy" and record.who == unit then out[#out + 1] = record.what end
  end
  table.sort(out)
  return out
end

-- Armour and equipment: any unit's.
local FOR_ANYONE = {
  "butros_charm", "butros_helm", "buzz_saw_suit", "cyber_suit", "earmuffs", "flak_vest", "hoblerones_healer",
  "hoblerones_robe", "pain_disperser", "perfect_plans", "plutonium_core", "plutonium_plate", "riot_shield",
  "sansachels_cloak", "sansachels_satchel", "spider_legs", "targeting_implants", "vacuum_fan", "vitae_pack",
}

-- `FOR_ANYONE` and `own`, sorted.
local function with_deck(own)
  local out = {}
  for _, id in ipairs(FOR_ANYONE) do out[#out + 1] = id end
  for _, id in ipairs(own) do out[#out + 1] = id end
  table.sort(out)
  return out
end

test("weapons come from the unit's own deck; armour and equipment from any", function()
  local g = scenario.new{ seed = 1, seats = 2, first = 1 }
  expect_eq(offered(g, h.RED_GUNNER),
    with_deck{ "chain_gun", "plasma_cannon", "plutonium_blaster", "rocket_launcher", "telegun" })
  expect_eq(offered(g, h.RED_WARRIOR),
    with_deck{ "boxing_gloves", "butros_axe", "buzz_pole", "buzz_saw", "war_hammer" })
  expect_eq(offered(g, h.RED_MEDIC), with_deck{
    "adrenaline", "hoblerones_lancet", "medi_kit", "needle_gun", "sedative", "steroids", "toxin",
  })
  expect_eq(offered(g, h.RED_SCOUT), with_deck{ "grenade_launcher", "kamikaze_vest", "pistol", "sansachels_blade" })
end)

test("one item a turn, paid in credits, its figures added to the unit's", function()
  local g = scenario.new{ seed = 1, seats = 2, first = 1 }
  g:act{ action = "buy", who = h.RED_SCOUT, what = "spider_legs" }
  expect_eq(g:resource(1, "credits"), 850000)
  expect_eq(g:stat(h.RED_SCOUT, "movement"), 7)
  expect_eq(g:current_seat(), 2, "one purchase ends the turn")
  g:pass()
  g:act{ action = "buy", who = h.RED_GUNNER, what = "riot_shield" }
  expect_eq(g:stat(h.RED_GUNNER, "toughness"), 5)
  g:pass()
  expect_eq(g:round(), 0, "red bought last time round: blue's pass is not yet everyone's")
  g:pass()
  expect_eq({ g:round(), g:current_seat() }, { 1, 1 }, "both passed in a row: red begins the match")
end)

test("a unit carries three items at most, and credits must cover the price", function()
  local g = scenario.new{ seed = 1, seats = 2, first = 1 }
  g:give(h.RED_GUNNER, "flak_vest")
  g:give(h.RED_GUNNER, "spider_legs")
  expect_eq(offered(g, h.RED_GUNNER), {}, "rifle, vest and legs: full")
  g:set_resource(1, "credits", 120000)
  expect_eq(offered(g, h.RED_SCOUT), { "flak_vest", "pistol" }, "the items of 120,000 or less a scout may carry")
end)

test("a purchase turn may instead offer an item to another team; the buyer takes it for a unit", function()
  local g = scenario.new{ seed = 1, seats = 2, first = 1 }
  g:give(h.RED_SCOUT, "spider_legs")
  g:set_stat(h.RED_SCOUT, "movement", 7)
  g:act{ action = "offer_item", who = h.RED_SCOUT, item = "spider_legs", buyer = 2, price = 2 }
  expect_eq(g:seat_to_act(), 2, "blue answers the offer")
  local legs = { piece = h.RED_SCOUT, item = "spider_legs" }
  g:act{ action = "buy_item", from = h.RED_SCOUT, item = legs, price = 2, unit = h.BLUE_SCOUT, seat = 2 }
  expect_eq({ g:resource(1, "credits"), g:resource(2, "credits") }, { 1100000, 900000 })
  expect_eq(g:items(h.RED_SCOUT), { "knife" })
  expect_eq(g:items(h.BLUE_SCOUT), { "knife", "spider_legs" })
  expect_eq({ g:stat(h.RED_SCOUT, "movement"), g:stat(h.BLUE_SCOUT, "movement") }, { 6, 7 })
end)

test("an offer may be declined; a starting weapon is never offered; one offer a shop", function()
  local g = scenario.new{ seed = 1, seats = 2, first = 1 }
  g:give(h.RED_SCOUT, "pistol")
  h.refused(g, { action = "offer_item", who = h.RED_SCOUT, item = "knife", buyer = 2, price = 1 })
  g:act{ action = "offer_item", who = h.RED_SCOUT, item = "pistol", buyer = 2, price = 20 }
  g:pass()
  expect_eq(g:items(h.RED_SCOUT), { "knife", "pistol" })
  expect_eq(g:resource(2, "credits"), 1000000)
  -- One offer a shop: red's next purchase turn may buy but not offer again.
  g:act{ action = "buy", who = h.BLUE_SCOUT, what = "pistol" }
  expect_eq(g:current_seat(), 1)
  h.refused(g, { action = "offer_item", who = h.RED_SCOUT, item = "pistol", buyer = 2, price = 1 })
end)

test("computer players answer offers but make none: a shop of spent teams ends", function()
  local g = scenario.new{ seed = 1, seats = 2, first = 1 }
  g:give(h.RED_SCOUT, "pistol")
  g:set_resource(1, "credits", 0)
  g:set_resource(2, "credits", 0)
  g:play("medium", 1)
  expect_eq(g:resource(1, "offers_made"), 0, "red passed rather than offer its pistol")
  g:play("medium", 1)
  expect_eq({ g:round(), g:current_seat() }, { 1, 1 }, "both passed: the match begins")
end)

test("an item sold back to the bank pays half its price and frees the unit's slot", function()
  local g = scenario.new{ seed = 1, seats = 2, first = 1 }
  g:act{ action = "buy", who = h.RED_GUNNER, what = "riot_shield" }
  g:pass()
  expect_eq(g:current_seat(), 1)
  h.refused(g, { action = "sell_back", who = h.RED_GUNNER, item = "rifle" }, "`item` does not satisfy its condition")
  g:act{ action = "sell_back", who = h.RED_GUNNER, item = "riot_shield" }
  expect_eq(g:resource(1, "credits"), 1000000 - 250000 + 125000)
  expect_eq({ g:items(h.RED_GUNNER), g:stat(h.RED_GUNNER, "toughness") }, { { "rifle" }, 3 })
end)
