-- Combat: the attacker's stack and the defender's are committed face down and opened
-- together; the attack (weapon strength + Skill + cards) less the defence (Toughness with armour
-- + cards) comes off Vitae. Death sends the unit to a jail the killer's team chooses.

local h = helpers

test("the attack less the defence comes off Vitae", function()
  -- Red's warrior: club 2 + Skill 3 + a 3 card = 8; blue's warrior: Toughness 2 + a 1 card = 3.
  local g = h.game{ at = { [h.RED_WARRIOR] = "E04", [h.BLUE_WARRIOR] = "F04" },
    hands = { [1] = { "power_3" }, [2] = { "power_1" } } }
  h.fight(g, h.RED_WARRIOR, h.BLUE_WARRIOR, { "power_3" }, { "power_1" })
  expect_eq(g:stat(h.BLUE_WARRIOR, "vitae"), 1, "6 - (8 - 3)")
  expect_eq(#g:state().seats[1].hand, 0, "committed cards are discarded once opened")
end)

test("a defence as strong as the attack takes nothing off", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "E04", [h.BLUE_WARRIOR] = "F04" },
    hands = { [1] = {}, [2] = { "power_4" } } }
  h.fight(g, h.RED_WARRIOR, h.BLUE_WARRIOR, {}, { "power_4" })
  expect_eq(g:stat(h.BLUE_WARRIOR, "vitae"), 6, "5 against 6")
end)

test("the stacks are sealed: the defender sees neither the cards nor how many until both are done", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "E04", [h.BLUE_WARRIOR] = "F04" },
    hands = { [1] = { "power_3", "power_2" }, [2] = { "power_1" } } }
  g:act{ action = "attack", who = h.RED_WARRIOR, weapon = "club", target = h.BLUE_WARRIOR }
  for _, card in ipairs{ "power_3", "power_2" } do
    g:act{ action = "stack", role = 1, attacker = h.RED_WARRIOR, target = h.BLUE_WARRIOR, card = card, seat = 1 }
  end
  g:pass()
  expect_eq(g:seat_to_act(), 2)
  expect_eq(#g:state().seats[1].hand, 2, "red's cards are still in its hand, face down")
  expect_eq(g:stat(h.BLUE_WARRIOR, "vitae"), 6, "nothing has landed yet")
  g:pass()
  expect_eq(g:stat(h.BLUE_WARRIOR, "vitae"), 0, "5 + 5 against 2: killed")
end)

test("a killed unit goes to the jail the killer's team chooses, which scores a kill", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "E04", [h.BLUE_SCOUT] = "F04" },
    hands = { [1] = { "power_4" }, [2] = {} } }
  h.fight(g, h.RED_WARRIOR, h.BLUE_SCOUT, { "power_4" }, {})
  expect_eq(g:seat_to_act(), 1, "red chooses the jail")
  g:act{ action = "imprison", victim = h.BLUE_SCOUT, scores = 1, jail = "Q08", seat = 1 }
  expect_eq(g:piece_space(h.BLUE_SCOUT), "Q08")
  expect_eq(g:resource(1, "kills"), 1)
  g:pass()
  g:pass()
  expect_eq(g:current_seat(), 2)
  h.refused(g, { action = "move", who = h.BLUE_SCOUT, to = "P08" })
end)

test("no unit is harmed in its own base, nor attacks from it; a unit heals 1 Vitae there", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "N01", [h.BLUE_WARRIOR] = "O01" } }
  expect_eq(h.targets(g, h.RED_WARRIOR), {}, "blue's warrior is in its base")
  g:move_piece(h.RED_WARRIOR, "C03")
  g:move_piece(h.BLUE_WARRIOR, "D03")
  g:move_piece(h.RED_GUNNER, "C02")
  expect(not h.has(h.targets(g, h.RED_GUNNER), h.BLUE_WARRIOR), "red's gunner stands in its base")
  g:set_stat(h.RED_GUNNER, "vitae", 4)
  g:act{ action = "heal", who = h.RED_GUNNER }
  expect_eq(g:stat(h.RED_GUNNER, "vitae"), 5)
end)

test("a weapon that incapacitates stops the wounded unit for its team's next turn", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "E04", [h.BLUE_GUNNER] = "F04" },
    hands = { [1] = {}, [2] = {} } }
  g:give(h.RED_WARRIOR, "buzz_saw")
  h.fight(g, h.RED_WARRIOR, h.BLUE_GUNNER, {}, {}, "buzz_saw")
  expect_eq(g:stat(h.BLUE_GUNNER, "vitae"), 1, "buzz saw 5 + Skill 3 against Toughness 3")
  expect_eq(g:stat(h.BLUE_GUNNER, "stunned"), 1)
  g:pass()
  g:pass()
  expect_eq(g:current_seat(), 2)
  h.refused(g, { action = "move", who = h.BLUE_GUNNER, to = "G04" })
  expect_eq(#h.targets(g, h.BLUE_GUNNER), 0, "no action either")
  g:pass()
  g:pass()
  expect_eq(g:stat(h.BLUE_GUNNER, "stunned"), 0, "upright again after its team's turn")
end)
