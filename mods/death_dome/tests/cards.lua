-- The Special Play cards' icons: [S] counts twice in an attack, [D] twice in a defence, [P]
-- keeps the defender from being knocked back (push.lua), [T] heals 1 Vitae at any time of the
-- team's turn. A hand holds 7 cards at most: a turn draws no more than that.

local h = helpers

test("Aimed Strike counts twice in an attack; Duck and Cover twice in a defence", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "E04", [h.BLUE_WARRIOR] = "F04" },
    hands = { [1] = { "aimed_strike" }, [2] = { "duck_and_cover" } } }
  g:set_stat(h.BLUE_WARRIOR, "vitae", 20)
  h.fight(g, h.RED_WARRIOR, h.BLUE_WARRIOR, { "aimed_strike" }, { "duck_and_cover" })
  expect_eq(g:stat(h.BLUE_WARRIOR, "vitae"), 20 - (2 + 3 + 4 - 2 - 4))
end)

test("Patch Up heals 1 Vitae of one's unit without spending an action", function()
  local g = h.game{ hands = { [1] = { "patch_up" } } }
  g:set_stat(h.RED_GUNNER, "vitae", 3)
  g:act{ action = "patch_up", card = "patch_up", who = h.RED_GUNNER }
  expect_eq(g:stat(h.RED_GUNNER, "vitae"), 4)
  expect_eq(g:state().phase, "first", "no action or move spent")
end)

test("a hand holds at most 7 cards: the turn's draw stops there", function()
  local g = h.game{ hands = { [2] = { "power_1", "power_1", "power_1", "power_1", "power_1", "power_2" } } }
  g:pass()
  g:pass()
  expect_eq(#g:state().seats[2].hand, 7, "6 held, 1 drawn")
end)
