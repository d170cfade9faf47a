-- The Special Play cards' icons: [S] counts twice in an attack, [D] twice in a defence, [P]
-- keeps the defender from being knocked back (push.lua), [T] heals 1 Vitae at any time of the
-- team's turn; [A] Bomb, [M] Sprint, [+A] Second Wind, [+M] Quick Step, [V] Grit, [K] Bounty,
-- [C] Rally, [O] Jammer and [P] Shove as cards.toml says. A hand holds 7 cards at most.

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

test("Bomb: an action; every unit on a square within 5 loses 2, the tower's centre too; no kill point", function()
  local g = h.game{ at = { [h.RED_SCOUT] = "E08", [h.BLUE_SCOUT] = "I08" }, hands = { [1] = { "bomb" } } }
  g:set_stat(h.BLUE_SCOUT, "vitae", 2)
  g:act{ action = "bomb", who = h.RED_SCOUT, card = "bomb", at = "I08" }
  expect_eq(g:stat(h.BLUE_SCOUT, "vitae"), 0, "out of sight on the tower's centre, bombed all the same")
  g:act{ action = "imprison", victim = h.BLUE_SCOUT, scores = 0, jail = "Q08", seat = 1 }
  expect_eq(g:resource(1, "kills"), 0)
  h.refused(g, { action = "attack", who = h.RED_SCOUT, weapon = "knife", target = h.BLUE_WARRIOR })
end)

test("Sprint is the phase's move, two squares further", function()
  local g = h.game{ at = { [h.RED_GUNNER] = "E04" }, hands = { [1] = { "sprint" } } }
  g:act{ action = "sprint", card = "sprint", who = h.RED_GUNNER, to = "J04" }
  expect_eq(g:piece_space(h.RED_GUNNER), "J04", "3 + 2 squares")
  expect_eq(g:state().phase, "second", "the move is spent and the gunner has no action to take there")
end)

test("Second Wind gives the phase's action back once it is taken; Quick Step the move", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "E02" }, hands = { [1] = { "second_wind", "quick_step" } } }
  expect(not h.offers(g, "second_wind"), "nothing to give back yet")
  g:act{ action = "capture", who = h.RED_WARRIOR }
  g:act{ action = "second_wind", card = "second_wind" }
  g:act{ action = "move", who = h.RED_WARRIOR, to = "C04" }
  g:act{ action = "capture", who = h.RED_WARRIOR }
  expect_eq({ g:owner("E02"), g:owner("C04") }, { 1, 1 })
  g:act{ action = "quick_step", card = "quick_step" }
  g:act{ action = "move", who = h.RED_WARRIOR, to = "E04" }
  expect_eq(g:state().phase, "second")
end)

test("Grit spares a Vitae of a wound; Bounty scores one more kill", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "E04", [h.BLUE_WARRIOR] = "F04" },
    hands = { [1] = { "power_4" }, [2] = { "grit" } } }
  h.fight(g, h.RED_WARRIOR, h.BLUE_WARRIOR, { "power_4" }, { "grit" })
  expect_eq(g:stat(h.BLUE_WARRIOR, "vitae"), 6 - (2 + 3 + 4 - 2 - 1 - 1))
  g = h.game{ at = { [h.RED_WARRIOR] = "E04", [h.BLUE_SCOUT] = "F04" }, hands = { [1] = { "bounty" }, [2] = {} } }
  h.fight(g, h.RED_WARRIOR, h.BLUE_SCOUT, { "bounty" }, {})
  g:act{ action = "imprison", victim = h.BLUE_SCOUT, scores = 1, jail = "Q08", seat = 1 }
  expect_eq(g:resource(1, "kills"), 2)
end)

test("Rally draws 2 once a control point is turned in the phase", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "E02" }, hands = { [1] = { "rally" } } }
  expect(not h.offers(g, "rally"), "no point turned yet")
  g:act{ action = "capture", who = h.RED_WARRIOR }
  g:act{ action = "rally", card = "rally" }
  expect_eq(#g:state().seats[1].hand, 2)
end)

test("a Jammer makes the other stack's strongest card count for nothing", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "E04", [h.BLUE_WARRIOR] = "F04" },
    hands = { [1] = { "power_4", "power_2" }, [2] = { "jammer" } } }
  g:set_stat(h.BLUE_WARRIOR, "vitae", 20)
  h.fight(g, h.RED_WARRIOR, h.BLUE_WARRIOR, { "power_4", "power_2" }, { "jammer" })
  expect_eq(g:stat(h.BLUE_WARRIOR, "vitae"), 20 - (2 + 3 + 2 - 2 - 1), "the 4 is jammed")
end)

test("Shove knocks a wounded unit back without cards of one power", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "E04", [h.BLUE_GUNNER] = "F04" },
    hands = { [1] = { "shove", "power_2" }, [2] = {} } }
  h.fight(g, h.RED_WARRIOR, h.BLUE_GUNNER, { "shove", "power_2" }, {})
  expect_eq(g:piece_space(h.BLUE_GUNNER), "G04")
end)
