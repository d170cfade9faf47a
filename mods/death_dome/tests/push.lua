-- Knock-back (the Lua hook `push_back`): a wounded unit is knocked one square straight back
-- when the attack holds three cards of one power — two for a weapon that says so. Off the
-- straight line its team chooses between the two squares around the line. A wall or a unit
-- behind negates it; lava behind kills.

local h = helpers
local ONES = { "power_1", "power_1", "power_1" }

-- Red's unit `attacker` on `from` hits blue's gunner (Toughness 3, Vitae 6) on `to` with
-- three 1s; blue plays nothing.
local function knock(attacker, from, to, extra)
  local g = h.game{ at = { [attacker] = from, [h.BLUE_GUNNER] = to }, hands = { [1] = ONES, [2] = {} } }
  for piece, label in pairs(extra or {}) do g:move_piece(piece, label) end
  h.fight(g, attacker, h.BLUE_GUNNER, ONES, {})
  return g
end

test("straight along a row: one square back", function()
  local g = knock(h.RED_WARRIOR, "E04", "F04")
  expect_eq(g:stat(h.BLUE_GUNNER, "vitae"), 1, "club 2 + Skill 3 + 3 against Toughness 3")
  expect_eq(g:piece_space(h.BLUE_GUNNER), "G04")
end)

test("straight along a diagonal: one square back on the diagonal", function()
  local g = knock(h.RED_WARRIOR, "I12", "J13")
  expect_eq(g:piece_space(h.BLUE_GUNNER), "K14")
end)

test("off the straight line the knocked unit's team chooses between the two squares around it", function()
  local g = knock(h.RED_GUNNER, "E04", "G05")
  expect_eq(g:seat_to_act(), 2, "blue chooses")
  local squares = {}
  for _, record in ipairs(g:legal()) do
    if record.action == "knocked_back" then squares[#squares + 1] = record.onto end
  end
  table.sort(squares)
  expect_eq(squares, { "H05", "H06" }, "straight on and diagonally on, away from the attacker")
  g:act{ action = "knocked_back", attacker = h.RED_GUNNER, target = h.BLUE_GUNNER, onto = "H05", seat = 2 }
  expect_eq(g:piece_space(h.BLUE_GUNNER), "H05")
end)

test("a wall behind negates the knock", function()
  local g = knock(h.RED_WARRIOR, "E02", "F02")
  expect_eq(g:stat(h.BLUE_GUNNER, "vitae"), 1, "wounded")
  expect_eq(g:piece_space(h.BLUE_GUNNER), "F02", "the tall wall between F02 and G02")
end)

test("a unit behind negates the knock", function()
  local g = knock(h.RED_WARRIOR, "E04", "F04", { [h.BLUE_SCOUT] = "G04" })
  expect_eq(g:piece_space(h.BLUE_GUNNER), "F04")
end)

test("lava behind kills: the attacker's team jails the unit and scores the kill", function()
  local g = knock(h.RED_WARRIOR, "E04", "F05")
  expect_eq(g:piece_space(h.BLUE_GUNNER), "G06", "knocked into the lava")
  expect_eq(g:seat_to_act(), 1)
  g:act{ action = "imprison", victim = h.BLUE_GUNNER, scores = 1, jail = "A08", seat = 1 }
  expect_eq(g:piece_space(h.BLUE_GUNNER), "A08")
  expect_eq(g:resource(1, "kills"), 1)
end)

test("two of a kind knock back only with a weapon that says so", function()
  local pair = { "power_2", "power_2" }
  local g = h.game{ at = { [h.RED_WARRIOR] = "E04", [h.BLUE_GUNNER] = "F04" }, hands = { [1] = pair, [2] = {} } }
  g:set_stat(h.BLUE_GUNNER, "vitae", 20)
  h.fight(g, h.RED_WARRIOR, h.BLUE_GUNNER, pair, {})
  expect_eq(g:piece_space(h.BLUE_GUNNER), "F04", "the club needs three of a kind")
  g = h.game{ at = { [h.RED_WARRIOR] = "E04", [h.BLUE_GUNNER] = "F04" }, hands = { [1] = pair, [2] = {} } }
  g:set_stat(h.BLUE_GUNNER, "vitae", 20)
  g:give(h.RED_WARRIOR, "war_hammer")
  h.fight(g, h.RED_WARRIOR, h.BLUE_GUNNER, pair, {}, "war_hammer")
  expect_eq(g:piece_space(h.BLUE_GUNNER), "G04", "the war hammer knocks back on two of a kind")
end)

test("Stand Firm in the defence stack prevents the knock; a blow that wounds nothing knocks nothing", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "E04", [h.BLUE_GUNNER] = "F04" },
    hands = { [1] = ONES, [2] = { "stand_firm" } } }
  h.fight(g, h.RED_WARRIOR, h.BLUE_GUNNER, ONES, { "stand_firm" })
  expect_eq(g:stat(h.BLUE_GUNNER, "vitae"), 2, "wounded for 4")
  expect_eq(g:piece_space(h.BLUE_GUNNER), "F04")
  g = h.game{ at = { [h.RED_SCOUT] = "E04", [h.BLUE_GUNNER] = "F04" }, hands = { [1] = ONES, [2] = { "power_4" } } }
  h.fight(g, h.RED_SCOUT, h.BLUE_GUNNER, ONES, { "power_4" })
  expect_eq({ g:stat(h.BLUE_GUNNER, "vitae"), g:piece_space(h.BLUE_GUNNER) }, { 6, "F04" }, "knife 1 + 2 + 3 against 7")
end)
