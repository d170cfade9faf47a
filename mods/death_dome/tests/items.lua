-- Items beyond the plain figures: splash damage, the medic's drugs (with the Needle Gun's
-- reach), the legendary sets and the combos, and what single items do in a fight.

local h = helpers

-- Red buys `purchases` (unit → list of item ids, bought in turn) in the first shop while blue
-- passes; then red passes too and the shop closes (sets and combos are worked out then).
local function shop(purchases)
  local g = scenario.new{ seed = 1, seats = 2, first = 1 }
  for _, buy in ipairs(purchases) do
    g:act{ action = "buy", who = buy[1], what = buy[2] }
    g:pass()
  end
  g:pass()
  h.stay_put(g)
  expect_eq(g:round(), 1, "blue passed, then red: the shop is closed")
  return g
end

test("a legendary set owned whole gives its bonus to the unit carrying the set's equipment", function()
  local g = shop{ { h.RED_GUNNER, "plutonium_blaster" }, { h.RED_WARRIOR, "plutonium_plate" },
    { h.RED_MEDIC, "plutonium_core" } }
  expect_eq(g:stat(h.RED_MEDIC, "skill"), 1 + 1, "the core's carrier")
  expect_eq(g:stat(h.RED_GUNNER, "skill"), 2, "the blaster's carrier gets nothing")
  local part = shop{ { h.RED_GUNNER, "plutonium_blaster" }, { h.RED_MEDIC, "plutonium_core" } }
  expect_eq(part:stat(h.RED_MEDIC, "skill"), 1, "two of three: no bonus")
end)

test("each set gives its own figure: Butros Toughness, Sansachel Movement, Hoblerone most Vitae", function()
  local g = shop{ { h.RED_WARRIOR, "butros_axe" }, { h.RED_GUNNER, "butros_helm" }, { h.RED_SCOUT, "butros_charm" } }
  expect_eq(g:stat(h.RED_SCOUT, "toughness"), 1 + 1)
  g = shop{ { h.RED_SCOUT, "sansachels_blade" }, { h.RED_GUNNER, "sansachels_cloak" },
    { h.RED_MEDIC, "sansachels_satchel" } }
  expect_eq(g:stat(h.RED_MEDIC, "movement"), 4 + 1)
  g = shop{ { h.RED_MEDIC, "hoblerones_lancet" }, { h.RED_GUNNER, "hoblerones_robe" },
    { h.RED_WARRIOR, "hoblerones_healer" } }
  expect_eq({ g:stat(h.RED_WARRIOR, "max_vitae"), g:stat(h.RED_WARRIOR, "vitae") }, { 7, 7 })
end)

test("a combo works when one unit carries both items, not when two units share them", function()
  local g = shop{ { h.RED_GUNNER, "telegun" }, { h.RED_GUNNER, "targeting_implants" } }
  expect_eq(g:stat(h.RED_GUNNER, "skill"), 2 + 1 + 1, "Skill 2, implants +1, the combo +1")
  local apart = shop{ { h.RED_GUNNER, "telegun" }, { h.RED_WARRIOR, "targeting_implants" } }
  expect_eq(apart:stat(h.RED_WARRIOR, "skill"), 3 + 1, "implants only")
  local suit = shop{ { h.RED_WARRIOR, "buzz_saw_suit" }, { h.RED_WARRIOR, "spider_legs" } }
  expect_eq(suit:stat(h.RED_WARRIOR, "movement"), 4 - 1 + 1 + 1, "the suit's weight, the legs, the combo")
  local shield = shop{ { h.RED_SCOUT, "riot_shield" }, { h.RED_SCOUT, "sansachels_satchel" } }
  expect_eq(shield:stat(h.RED_SCOUT, "toughness"), 1 + 2 + 1)
end)

test("splash damage hits the enemies around the target with the same attack, one defence stack a team", function()
  -- Red's gunner (Skill 2, rocket 3) at C04 shoots blue's warrior on F04; blue's scout stands
  -- beside it on G04, red's own warrior on E05 (never hit by its own side).
  local g = h.game{ at = { [h.RED_GUNNER] = "C04", [h.BLUE_WARRIOR] = "F04", [h.BLUE_SCOUT] = "G04",
    [h.RED_WARRIOR] = "E05" }, hands = { [1] = { "power_3" }, [2] = { "power_1" } } }
  g:give(h.RED_GUNNER, "rocket_launcher")
  g:set_stat(h.BLUE_SCOUT, "vitae", 10)
  h.fight(g, h.RED_GUNNER, h.BLUE_WARRIOR, { "power_3" }, { "power_1" }, "rocket_launcher")
  expect_eq(g:stat(h.BLUE_WARRIOR, "vitae"), 6 - (3 + 2 + 3 - 2 - 1), "the target")
  expect_eq(g:stat(h.BLUE_SCOUT, "vitae"), 10 - (3 + 2 + 3 - 1 - 1), "splashed, blue's one card defends it too")
  expect_eq(g:stat(h.RED_WARRIOR, "vitae"), 6, "not an enemy")
end)

test("splash over two teams: each commits its own stack, in seat order", function()
  local g = h.game{ seats = 3, at = { [h.RED_GUNNER] = "C04", [h.BLUE_WARRIOR] = "F04", [h.GREEN_WARRIOR] = "F05" },
    hands = { [1] = {}, [2] = { "power_4" }, [3] = { "power_1" } } }
  g:give(h.RED_GUNNER, "rocket_launcher")
  g:act{ action = "attack", who = h.RED_GUNNER, weapon = "rocket_launcher", target = h.BLUE_WARRIOR }
  g:pass()
  expect_eq(g:seat_to_act(), 2, "blue defends first")
  g:act{ action = "stack", role = 2, attacker = h.RED_GUNNER, target = h.BLUE_WARRIOR, card = "power_4", seat = 2 }
  g:pass()
  expect_eq(g:seat_to_act(), 3, "then green")
  expect_eq(g:stat(h.BLUE_WARRIOR, "vitae"), 6, "nothing lands until every stack is closed")
  g:act{ action = "stack", role = 2, attacker = h.RED_GUNNER, target = h.BLUE_WARRIOR, card = "power_1", seat = 3 }
  g:pass()
  expect_eq(g:stat(h.BLUE_WARRIOR, "vitae"), 6, "5 against 2 + 4")
  expect_eq(g:stat(h.GREEN_WARRIOR, "vitae"), 6 - (5 - 2 - 1))
end)

test("the Medi-Kit heals 2 a dose and is used up with its third", function()
  local g = h.game{ at = { [h.RED_MEDIC] = "E04", [h.RED_WARRIOR] = "F04" }, hands = { [1] = {} } }
  g:give(h.RED_MEDIC, "medi_kit")
  g:set_stat(h.RED_WARRIOR, "vitae", 1)
  g:act{ action = "dose", medic = h.RED_MEDIC, drug = "medi_kit", patient = h.RED_WARRIOR }
  expect_eq(g:stat(h.RED_WARRIOR, "vitae"), 3)
  expect_eq(g:charges(h.RED_MEDIC, "medi_kit"), 2)
  g:set_charges(h.RED_MEDIC, "medi_kit", 1)
  g:pass()
  g:act{ action = "dose", medic = h.RED_MEDIC, drug = "medi_kit", patient = h.RED_MEDIC }
  expect_eq(g:items(h.RED_MEDIC), { "syringe" }, "the empty pack is gone")
end)

test("drugs reach the adjacent squares, or the Needle Gun's range in sight", function()
  local g = h.game{ at = { [h.RED_MEDIC] = "A04", [h.RED_WARRIOR] = "F04" }, hands = { [1] = {} } }
  g:give(h.RED_MEDIC, "steroids")
  h.refused(g, { action = "dose", medic = h.RED_MEDIC, drug = "steroids", patient = h.RED_WARRIOR })
  g:give(h.RED_MEDIC, "needle_gun")
  g:act{ action = "dose", medic = h.RED_MEDIC, drug = "steroids", patient = h.RED_WARRIOR }
  expect_eq(g:stat(h.RED_WARRIOR, "skill"), 3 + 2)
end)

test("Steroids and Adrenaline last until the end of the team's turn; their combos give more", function()
  local g = h.game{ at = { [h.RED_MEDIC] = "E04", [h.RED_WARRIOR] = "F04", [h.RED_GUNNER] = "E05" },
    hands = { [1] = {} } }
  g:give(h.RED_MEDIC, "steroids")
  g:give(h.RED_MEDIC, "adrenaline")
  g:give(h.RED_WARRIOR, "sansachels_satchel")
  g:give(h.RED_WARRIOR, "boxing_gloves")
  g:give(h.RED_GUNNER, "buzz_saw_suit")
  g:act{ action = "dose", medic = h.RED_MEDIC, drug = "steroids", patient = h.RED_WARRIOR }
  expect_eq(g:stat(h.RED_WARRIOR, "skill"), 3 + 2 + 2, "satchel and gloves: 2 more")
  g:pass()
  g:act{ action = "dose", medic = h.RED_MEDIC, drug = "adrenaline", patient = h.RED_GUNNER }
  expect_eq(g:stat(h.RED_GUNNER, "movement"), 3 + 2 + 1, "in a buzz saw suit: 1 more")
  g:pass()
  expect_eq(g:current_seat(), 2)
  expect_eq({ g:stat(h.RED_WARRIOR, "skill"), g:stat(h.RED_GUNNER, "movement") }, { 3, 3 }, "worn off")
end)

test("Sedative incapacitates the unit it wounds, unless it wears Earmuffs; Toxin takes 2 more", function()
  local g = h.game{ at = { [h.RED_MEDIC] = "E04", [h.BLUE_SCOUT] = "F04", [h.BLUE_MEDIC] = "D04" },
    hands = { [1] = { "power_2", "power_2" }, [2] = {} } }
  g:give(h.RED_MEDIC, "sedative")
  g:give(h.RED_MEDIC, "toxin")
  h.fight(g, h.RED_MEDIC, h.BLUE_SCOUT, { "power_2" }, {}, "sedative")
  expect_eq({ g:stat(h.BLUE_SCOUT, "vitae"), g:stat(h.BLUE_SCOUT, "stunned") }, { 4 - (1 + 1 + 2 - 1), 1 })
  expect_eq(g:charges(h.RED_MEDIC, "sedative"), 2)
  g:pass()
  g:give(h.BLUE_MEDIC, "earmuffs")
  g:set_stat(h.BLUE_MEDIC, "vitae", 20)
  h.fight(g, h.RED_MEDIC, h.BLUE_MEDIC, { "power_2" }, {}, "toxin")
  expect_eq(g:stat(h.BLUE_MEDIC, "vitae"), 20 - (1 + 1 + 2 - 1) - 2, "wounded: the poison's 2 more")
end)

test("the Pain Disperser spares a Vitae of each wound; a wound it cancels takes no poison", function()
  local g = h.game{ at = { [h.RED_MEDIC] = "E04", [h.BLUE_GUNNER] = "F04" }, hands = { [1] = { "power_2" }, [2] = {} } }
  g:give(h.RED_MEDIC, "toxin")
  g:give(h.BLUE_GUNNER, "pain_disperser")
  h.fight(g, h.RED_MEDIC, h.BLUE_GUNNER, { "power_2" }, {}, "toxin")
  expect_eq(g:stat(h.BLUE_GUNNER, "vitae"), 6, "1 + 1 + 2 - 3 = 1, spared: not wounded")
end)

test("the Buzz Saw Suit cuts a close attacker that does its wearer no harm", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "E04", [h.BLUE_GUNNER] = "F04" },
    hands = { [1] = {}, [2] = { "power_4" } } }
  g:give(h.BLUE_GUNNER, "buzz_saw_suit")
  h.fight(g, h.RED_WARRIOR, h.BLUE_GUNNER, {}, { "power_4" })
  expect_eq(g:stat(h.BLUE_GUNNER, "vitae"), 6)
  expect_eq(g:stat(h.RED_WARRIOR, "vitae"), 5, "cut")
end)

test("the Kamikaze Vest: every unit around loses 3 (5 with the Vacuum Fan); the scout goes to jail", function()
  local g = h.game{
    at = { [h.RED_SCOUT] = "E04", [h.BLUE_WARRIOR] = "F04", [h.BLUE_SCOUT] = "E05", [h.RED_WARRIOR] = "D04" },
    hands = { [1] = {} } }
  g:give(h.RED_SCOUT, "kamikaze_vest")
  g:give(h.RED_SCOUT, "vacuum_fan")
  g:act{ action = "detonate", who = h.RED_SCOUT, vest = "kamikaze_vest" }
  expect_eq(g:stat(h.BLUE_WARRIOR, "vitae"), 6 - 5)
  expect_eq(g:stat(h.RED_WARRIOR, "vitae"), 6 - 5, "its own side too")
  expect_eq(g:seat_to_act(), 1, "red jails blue's scout (4 Vitae: killed)")
  g:act{ action = "imprison", victim = h.BLUE_SCOUT, scores = 1, jail = "Q08", seat = 1 }
  g:act{ action = "imprison", victim = h.RED_SCOUT, scores = 0, jail = "I00", seat = 1 }
  expect_eq({ g:piece_space(h.BLUE_SCOUT), g:piece_space(h.RED_SCOUT) }, { "Q08", "I00" })
  expect_eq(g:resource(1, "kills"), 1, "the enemy's death counts, the scout's own does not")
end)

test("Perfect Plans draw one more card a turn", function()
  local g = h.game{ hands = { [2] = {} } }
  g:give(h.BLUE_MEDIC, "perfect_plans")
  g:pass()
  g:pass()
  expect_eq(#g:state().seats[2].hand, 3 + 1)
end)

test("Hoblerone's Healer: an action heals its carrier or an adjacent teammate 1 Vitae", function()
  local g = h.game{ at = { [h.RED_MEDIC] = "E04", [h.RED_WARRIOR] = "F04" }, hands = { [1] = {} } }
  g:give(h.RED_MEDIC, "hoblerones_healer")
  g:set_stat(h.RED_WARRIOR, "vitae", 2)
  g:act{ action = "tend", who = h.RED_MEDIC, patient = h.RED_WARRIOR }
  expect_eq(g:stat(h.RED_WARRIOR, "vitae"), 3)
end)

test("the Vacuum Fan knocks back on two of a kind with any weapon", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "E04", [h.BLUE_GUNNER] = "F04" },
    hands = { [1] = { "power_2", "power_2" }, [2] = {} } }
  g:give(h.RED_WARRIOR, "vacuum_fan")
  g:set_stat(h.BLUE_GUNNER, "vitae", 20)
  h.fight(g, h.RED_WARRIOR, h.BLUE_GUNNER, { "power_2", "power_2" }, {})
  expect_eq(g:piece_space(h.BLUE_GUNNER), "G04")
end)
