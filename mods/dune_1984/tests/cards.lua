-- Buying, assigning and selling cards and harvesters; Kanly cards.

local h = helpers

test("at most 3 cards and 3 harvesters a turn, 1 spice each", function()
  local g = h.game{ spice = 20 }
  h.red_moves(g)
  for _ = 1, 3 do g:act{ action = "buy_kanly" } end
  expect_eq(h.offers(g, "buy_kanly") or h.offers(g, "buy_equipment"), false)
  for _ = 1, 3 do g:act{ action = "buy_harvester" } end
  expect_eq(h.offers(g, "buy_harvester"), false)
  expect_eq(g:resource(1, "spice"), 20 + 1 - 6)
  expect_eq(g:resource(1, "harvesters"), 4)
  expect_eq(#g:state().seats[1].hand, 3)
end)

test("a deck that runs out is out", function()
  local g = h.game{ spice = 20 }
  h.red_moves(g)
  g:set_var("kanly_left", 1)
  g:act{ action = "buy_kanly" }
  expect_eq(h.offers(g, "buy_kanly"), false)
end)

test("equipment is assigned at once to a character that lacks it; a duplicate goes into the hand", function()
  local g = h.game{ spice = 20 }
  h.red_moves(g)
  g:set_deck("equipment", { "sword" })
  g:act{ action = "buy_equipment" }
  expect_eq(g:seat_to_act(), 1)
  h.refused(g, { seat = 1, action = "pass" }, "cannot be declined")
  g:act{ seat = 1, action = "assign", card = "sword", who = h.LETO }
  for _, who in ipairs{ h.PAUL, h.GURNEY } do
    g:set_deck("equipment", { "sword" })
    g:act{ action = "buy_equipment" }
    g:act{ seat = 1, action = "assign", card = "sword", who = who }
  end
  g:set_deck("equipment", { "sword" })
  g:set_var("cards_bought", 0)
  g:act{ action = "buy_equipment" }
  expect_eq(g:seat_to_act(), 1)
  expect_eq(h.offers(g, "assign"), false, "every character has a sword: the fourth stays in the hand")
  expect_eq(g:state().seats[1].hand, { "sword" })
end)

test("selling back: 1 spice for two cards, two harvesters, or one of each", function()
  local g = h.game()
  h.red_moves(g)
  g:set_hand(1, "kanly", { "secret_silo", "hunter_seeker", "harvester_raid" })
  g:set_resource(1, "harvesters", 3)
  g:act{ action = "sell_cards", first = "secret_silo", second = "hunter_seeker" }
  g:act{ action = "sell_harvesters" }
  g:act{ action = "sell_card_and_harvester", card = "harvester_raid" }
  expect_eq(g:resource(1, "spice"), 4 + 3)
  expect_eq(g:resource(1, "harvesters"), 0)
  expect_eq(#g:deck("kanly").discard, 3, "cards sold are discarded")
end)

test("one Kanly card a turn, before buying: Secret Silo gives 3 spice", function()
  local g = h.game()
  h.red_moves(g)
  g:set_hand(1, "kanly", { "secret_silo", "secret_silo" })
  g:act{ action = "play_silo" }
  expect_eq(g:resource(1, "spice"), 4 + 3)
  expect_eq(h.offers(g, "play_silo"), false, "one Kanly card a turn")
  local g2 = h.game()
  h.red_moves(g2)
  g2:set_hand(1, "kanly", { "secret_silo" })
  g2:act{ action = "buy_harvester" }
  expect_eq(h.offers(g2, "play_silo"), false, "not after buying")
end)

test("a Hunter-Seeker eliminates its target when a die beats its Guile, bought Guile included", function()
  local g = h.game()
  h.red_moves(g)
  g:set_hand(1, "kanly", { "hunter_seeker", "hunter_seeker" })
  g:act{ action = "play_hunter", target = h.IRULAN }
  g:force_dice{ 4 }
  h.answer(g, 2, { action = "brace", victim = h.IRULAN, threat = 4, guile = 1, shelter = 0 })
  expect_eq(g:alive(h.IRULAN), true, "Guile 3 + 1 holds against a 4")
  expect_eq(g:resource(2, "spice"), 0)
end)

test("a Harvester Raid takes up to 2 harvesters", function()
  local g = h.game()
  h.red_moves(g)
  g:set_resource(3, "harvesters", 5)
  g:set_hand(1, "kanly", { "harvester_raid" })
  g:act{ action = "play_raid", victim = 3 }
  expect_eq(g:resource(3, "harvesters"), 3)
  expect_eq(g:resource(1, "harvesters"), 3)
end)
