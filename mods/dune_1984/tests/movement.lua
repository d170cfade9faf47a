-- Rolling and moving: one character by either die or the sum, or two characters one die each;
-- at least one must move; moves end exactly where the dice say.

local h = helpers

test("the text's example: a 5 and a 4 move one character 4, 5 or 9 spaces", function()
  local g = h.game{ at = { [h.PAUL] = "D1" } }
  h.roll(g, 5, 4)
  expect_eq(h.destinations(g, "move_second", h.PAUL), { "D5" })
  expect_eq(h.destinations(g, "move_first", h.PAUL), { "D6" })
  -- 9: on along the desert to D10, or in at the yellow sietch (5) and four castle spaces on.
  expect_eq(h.destinations(g, "move_both", h.PAUL), { "C6", "D10" })
end)

test("from a sietch, a roll goes on along the desert, or through the castle and out at another sietch", function()
  local g = h.game()
  h.roll(g, 5, 4)
  -- The gate C0 is the first step in; C3 is the yellow sietch's gate, so 5 steps reach D6.
  expect_eq(h.destinations(g, "move_first", h.PAUL), { "C4", "D5", "D6" })
  expect_eq(h.destinations(g, "move_second", h.PAUL), { "C3", "D4" })
end)

test("a roll crosses between the rings only through a sietch and never steps back", function()
  local g = h.game{ at = { [h.PAUL] = "D4" } }
  h.roll(g, 3, 6)
  -- From D4: 3 reaches D7, or C3 through the yellow sietch (D6); 6 reaches D10 or C6.
  expect_eq(h.destinations(g, "move_first", h.PAUL), { "C3", "D7" })
  expect_eq(h.destinations(g, "move_second", h.PAUL), { "C6", "D10" })
end)

test("a split roll moves two characters, one die each, and the first resolves before the second moves", function()
  local g = h.game()
  g:set_resource(1, "harvesters", 4)
  h.roll(g, 1, 4)
  g:act{ action = "move_first", who = h.PAUL, to = "D1" }
  expect_eq(g:resource(1, "spice"), 3 + 3, "the spice field pays at once: 1, and 1 for every 2 harvesters")
  expect_eq(h.destinations(g, "move_second", h.PAUL), {}, "the second die moves another character")
  expect_eq(h.destinations(g, "move_second", h.LETO), { "C3", "D4" })
  g:act{ action = "move_second", who = h.LETO, to = "D4" }
  expect_eq(h.offers(g, "move_both"), false)
  expect_eq(g:piece_space(h.PAUL), "D1")
  expect_eq(g:piece_space(h.LETO), "D4")
end)

test("at least one character must move; after one die the other may be left unused", function()
  local g = h.game()
  h.roll(g, 1, 3)
  h.refused(g, { action = "pass" })
  g:act{ action = "move_first", who = h.GURNEY, to = "D1" }
  expect(h.offers(g, "keep_die"), "the second die may be left")
  g:act{ action = "keep_die" }
  expect(not h.offers(g, "move_second"), "no more moves once a die is left")
end)

test("a lone character may move by either die or the sum, and the other die is then spent", function()
  local g = h.game()
  g:remove(h.LETO)
  g:remove(h.GURNEY)
  h.roll(g, 2, 5)
  g:act{ action = "move_second", who = h.PAUL, to = "D5" }
  expect(not h.offers(g, "move_first") and not h.offers(g, "keep_die"), "nobody is left to move by the other die")
end)

test("landing on an armoury or infirmary costs 1 spice, and is not offered to a house without it", function()
  local g = h.game()
  g:set_resource(1, "spice", 0)
  g:set_resource(1, "harvesters", 1)
  h.roll(g, 1, 2)
  expect_eq(h.destinations(g, "move_first", h.PAUL), { "C0", "D1" }, "the gate C0 is free")
  expect_eq(h.destinations(g, "move_second", h.PAUL), { "D2" }, "C1, the armoury, costs 1")
  g:set_resource(1, "spice", 1)
  expect_eq(h.destinations(g, "move_second", h.PAUL), { "C1", "D2" })
  g:act{ action = "move_second", who = h.PAUL, to = "C1" }
  expect_eq(g:resource(1, "spice"), 0, "the fee is paid")
  expect_eq(#g:state().seats[1].hand, 1, "the armoury gives an equipment card")
end)
