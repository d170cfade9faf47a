-- Deals: before moving, a house may offer another spice for a promise not to attack it for a
-- round, or offer harvesters or a card for spice. An accepted deal moves the goods at once.

local h = helpers

test("the text's example: spice for a promise of no ambush, kept for a round", function()
  local g = h.game()
  g:move_piece(h.SARDAUKAR, "D4")
  h.roll(g, 4, 6)
  g:act{ action = "propose_truce", partner = 2, pay = 2 }
  h.answer(g, 2, { action = "accept_truce", from = 1, pay = 2 })
  expect_eq(g:resource(1, "spice"), 1)
  expect_eq(g:resource(2, "spice"), 5)
  g:act{ action = "move_first", who = h.PAUL, to = "D4" }
  expect_eq(g:seat_to_act(), 1, "yellow is not asked: it promised")
  expect_eq(g:resource(1, "spice"), 2, "the directions follow at once")
  g:act{ action = "keep_die" }
  expect_eq(h.offers(g, "fight"), true, "red promised nothing")
end)

test("a refused deal moves nothing; one deal a turn", function()
  local g = h.game()
  h.roll(g, 4, 6)
  g:act{ action = "propose_truce", partner = 2, pay = 1 }
  g:act{ seat = 2, action = "pass" }
  expect_eq(g:resource(1, "spice"), 3)
  expect_eq(h.offers(g, "propose_truce"), false)
end)

test("a card sold to another house changes hands when it accepts", function()
  local g = h.game()
  g:set_hand(1, "equipment", { "shield" })
  h.roll(g, 4, 6)
  g:act{ action = "sell_card_to", partner = 3, card = "shield", price = 2 }
  local shown = h.events_named(g, "cards_revealed")
  expect_eq(#shown, 1, "the card is shown to the buyer")
  expect_eq(shown[1].to, 3)
  h.answer(g, 3, { action = "accept_card", from = 1, card = "shield", price = 2 })
  expect_eq(g:resource(1, "spice"), 5)
  expect_eq(g:resource(3, "spice"), 1)
  expect_eq(g:seat_to_act(), 3, "blue must assign its new shield")
  g:act{ seat = 3, action = "assign", card = "shield", who = h.STILGAR }
  expect_eq(g:attached(h.STILGAR), { "shield" })
end)

test("harvesters sold to another house", function()
  local g = h.game()
  g:set_resource(1, "harvesters", 3)
  h.roll(g, 4, 6)
  g:act{ action = "sell_harvesters_to", partner = 4, count = 2, price = 3 }
  h.answer(g, 4, { action = "accept_harvesters", from = 1, count = 2, price = 3 })
  expect_eq({ g:resource(1, "harvesters"), g:resource(1, "spice") }, { 1, 6 })
  expect_eq({ g:resource(4, "harvesters"), g:resource(4, "spice") }, { 3, 0 })
end)
