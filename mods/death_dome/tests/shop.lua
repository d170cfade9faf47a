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

test("weapons come from the unit's own deck; armour and equipment from any", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  expect_eq(offered(g, h.RED_GUNNER), {
    "chain_gun", "flak_vest", "plasma_cannon", "riot_shield", "spider_legs", "targeting_implants", "vitae_pack",
  })
  expect_eq(offered(g, h.RED_SCOUT), {
    "flak_vest", "grenade_launcher", "pistol", "riot_shield", "spider_legs", "targeting_implants", "vitae_pack",
  })
end)

test("one item a turn, paid in credits, its figures added to the unit's", function()
  local g = scenario.new{ seed = 1, seats = 2 }
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
  local g = scenario.new{ seed = 1, seats = 2 }
  g:give(h.RED_GUNNER, "flak_vest")
  g:give(h.RED_GUNNER, "spider_legs")
  expect_eq(offered(g, h.RED_GUNNER), {}, "rifle, vest and legs: full")
  g:set_resource(1, "credits", 120000)
  expect_eq(offered(g, h.RED_SCOUT), { "flak_vest", "pistol" }, "the items of 120,000 or less a scout may carry")
end)
