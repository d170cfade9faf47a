-- Weapons: the damage of every weapon with forced dice, exactly as the rules give it, and the
-- range within which each weapon is offered (distance ignores water and counts zig-zag steps
-- as one).

local game, attack, offered, targets, refused = helpers.game, helpers.attack, helpers.offered, helpers.targets,
  helpers.refused

-- The police character (piece 1) on A00 and the terrorist (piece 2) `steps` tiles to the east
-- on row 00, seat 1 to move; `weapon` (a primary) given to piece 1 when named.
local function duel(steps, weapon)
  local g = game{ at = { "A00", string.char(65 + steps) .. "00" } }
  if weapon then g:give(1, weapon) end
  return g
end

-- Seat 1 gets a fresh turn (its move, attack and buy unused) and piece 2 full health again.
local function again(g)
  g:set_turn(1)
  g:set_stat(2, "health", 100)
end

-- ----- damage -----

test("knife: the damage is the number rolled, next to the enemy", function()
  local g = duel(1)
  expect_eq(attack(g, "knife", 2, { 4 }), 4)
  expect_eq(g:stat(2, "health"), 96)
  again(g)
  expect_eq(attack(g, "knife", 2, { 1 }), 1)
  again(g)
  expect_eq(attack(g, "knife", 2, { 6 }), 6)
  expect_eq(g:forced_left(), 0, "the knife rolls one die")
end)

test("pistol: twice the number rolled, the same at one and at two steps", function()
  local g = duel(2)
  expect_eq(attack(g, "pistol", 2, { 5 }), 10)
  expect_eq(g:stat(2, "health"), 90)
  again(g)
  g:move_piece(2, "B00")
  expect_eq(attack(g, "pistol", 2, { 3 }), 6)
  again(g)
  expect_eq(attack(g, "pistol", 2, { 6 }), 12)
  expect_eq(g:forced_left(), 0, "the pistol rolls one die")
end)

test("shotgun: the roll times 3 at one step, times 2 at two, times 1 at three", function()
  local g = duel(1, "shotgun")
  expect_eq(attack(g, "shotgun", 2, { 4 }), 12, "one step")
  again(g)
  g:move_piece(2, "C00")
  expect_eq(attack(g, "shotgun", 2, { 4 }), 8, "two steps")
  again(g)
  g:move_piece(2, "D00")
  expect_eq(attack(g, "shotgun", 2, { 4 }), 4, "three steps")
  again(g)
  -- Two steps along a zig-zag (A00 -> A01 -> B02) count as two, like along a row.
  g:move_piece(2, "B02")
  expect_eq(attack(g, "shotgun", 2, { 6 }), 12, "two zig-zag steps")
  expect_eq(g:charges(1, "shotgun"), 4, "one shell per shot")
end)

test("submachine gun: two dice times 2; one die when one bullet is left", function()
  local g = duel(3, "submachine_gun")
  expect_eq(attack(g, "submachine_gun", 2, { 3, 5 }), 16)
  expect_eq(g:charges(1, "submachine_gun"), 8, "two bullets fired")
  again(g)
  g:set_charges(1, "submachine_gun", 1)
  expect_eq(attack(g, "submachine_gun", 2, { 6, 1 }), 12, "one bullet: one die")
  expect_eq(g:forced_left(), 1, "only one die was rolled")
  expect_eq(g:charges(1, "submachine_gun"), 0)
end)

test("assault rifle: three dice times 3; as many dice as bullets when fewer than three", function()
  local g = duel(4, "assault_rifle")
  expect_eq(attack(g, "assault_rifle", 2, { 2, 3, 4 }), 27)
  expect_eq(g:charges(1, "assault_rifle"), 12, "three bullets fired")
  again(g)
  g:set_charges(1, "assault_rifle", 2)
  expect_eq(attack(g, "assault_rifle", 2, { 5, 6, 1 }), 33, "two bullets: two dice")
  expect_eq(g:forced_left(), 1)
  expect_eq(g:charges(1, "assault_rifle"), 0)
end)

test("assault rifle with one bullet rolls one die", function()
  local g = duel(1, "assault_rifle")
  g:set_charges(1, "assault_rifle", 1)
  expect_eq(attack(g, "assault_rifle", 2, { 4, 1, 1 }), 12)
  expect_eq(g:forced_left(), 2)
  expect_eq(g:charges(1, "assault_rifle"), 0)
end)

test("sniper rifle: 1 to 3 miss, 4, 5 and 6 deal 25, 50 and 75, at any distance in range", function()
  local expected = { 0, 0, 0, 25, 50, 75 }
  for face = 1, 6 do
    for _, steps in ipairs{ 1, 5 } do
      local g = duel(steps, "sniper_rifle")
      expect_eq(attack(g, "sniper_rifle", 2, { face }), expected[face],
        "face " .. face .. " at " .. steps .. " steps")
      expect_eq(g:charges(1, "sniper_rifle"), 4, "one bullet per shot")
      expect_eq(g:forced_left(), 0, "one die")
    end
  end
end)

test("machine gun: the rules' example, 5 bullets rolling 3,3,4,4,4 then 3,3,3, deals 27", function()
  local g = duel(3, "machine_gun")
  g:set_charges(1, "machine_gun", 5)
  expect_eq(attack(g, "machine_gun", 2, { 3, 3, 4, 4, 4, 3, 3, 3 }), 27)
  expect_eq(g:forced_left(), 0, "five dice, then three")
  expect_eq(g:charges(1, "machine_gun"), 0, "all five bullets fired")
  expect_eq(g:stat(2, "health"), 73)
end)

test("machine gun: five of a full clip fired; each 4 or more rolls again", function()
  local g = duel(1, "machine_gun")
  expect_eq(g:charges(1, "machine_gun"), 20)
  -- 4, 5, 6 hit; the second roll 1, 2, 6 sums to 9.
  expect_eq(attack(g, "machine_gun", 2, { 4, 5, 6, 1, 2, 1, 2, 6 }), 27)
  expect_eq(g:charges(1, "machine_gun"), 15)
  again(g)
  -- All five hit: the second roll of five dice, 6 each, is 30, times 3.
  expect_eq(attack(g, "machine_gun", 2, { 6, 6, 6, 6, 6, 6, 6, 6, 6, 6 }), 90)
  expect_eq(g:charges(1, "machine_gun"), 10)
  expect_eq(g:forced_left(), 0)
end)

test("machine gun with fewer than five bullets rolls one die per bullet", function()
  local g = duel(2, "machine_gun")
  g:set_charges(1, "machine_gun", 2)
  -- Two dice: 4 hits, 2 misses; one die again: 6. 6 x 3 = 18.
  expect_eq(attack(g, "machine_gun", 2, { 4, 2, 6, 5 }), 18)
  expect_eq(g:forced_left(), 1, "two dice, then one")
  expect_eq(g:charges(1, "machine_gun"), 0)
end)

test("machine gun: when every bullet misses there is no second roll and no damage", function()
  local g = duel(3, "machine_gun")
  expect_eq(attack(g, "machine_gun", 2, { 1, 2, 3, 3, 3, 6 }), 0)
  expect_eq(g:forced_left(), 1, "no second roll")
  expect_eq(g:stat(2, "health"), 100)
  expect_eq(g:charges(1, "machine_gun"), 15, "the bullets that missed are spent")
end)

test("the roll is shown as dice events: the second machine-gun roll after the first", function()
  local g = duel(3, "machine_gun")
  g:set_charges(1, "machine_gun", 5)
  g:force_dice{ 3, 3, 4, 4, 4, 3, 3, 3 }
  g:act{ action = "attack", weapon = "machine_gun" }
  local faces = {}
  for _, e in ipairs(helpers.events_named(g, "rolled")) do faces[#faces + 1] = e.faces end
  expect_eq(faces, { { 3, 3, 4, 4, 4 }, { 3, 3, 3 } })
end)

-- ----- range -----

-- What the rules give each weapon as its range.
local RANGE = { knife = 1, pistol = 2, shotgun = 3, submachine_gun = 3, assault_rifle = 4, sniper_rifle = 5,
  machine_gun = 3 }

test("each weapon is offered exactly within its range", function()
  for _, primary in ipairs{ "shotgun", "submachine_gun", "assault_rifle", "sniper_rifle", "machine_gun" } do
    for steps = 1, 7 do
      local g = duel(steps, primary)
      local expected = {}
      for _, weapon in ipairs{ "knife", "pistol", primary } do
        if steps <= RANGE[weapon] then expected[#expected + 1] = weapon end
      end
      table.sort(expected)
      expect_eq(offered(g, "attack"), expected, primary .. " at " .. steps .. " steps")
    end
  end
end)

test("a weapon out of range is refused, before the roll", function()
  local g = duel(3, "shotgun")
  refused(g, { action = "attack", weapon = "pistol" }, "weapon")
  refused(g, { action = "attack", weapon = "knife" }, "weapon")
  expect_eq(g:charges(1, "pistol"), 6, "nothing fired")
  g:move_piece(2, "E00")
  refused(g, { action = "attack", weapon = "shotgun" }, "weapon")
  expect_eq(g:awaiting(), nil)
end)

test("range counts steps over water, and a zig-zag step is one step", function()
  -- A00 is cut off by water (B00 and A01); the enemy is across it.
  local board = helpers.board{
    "gwgggg",
    "wwgggg",
    "gggggg",
    "gggggg",
  }
  local g = game{ board = board, at = { "A00", "C00" } }
  expect_eq(offered(g, "attack"), { "pistol" }, "C00 is 2 steps away across B00")
  g:move_piece(2, "B02")
  expect_eq(offered(g, "attack"), { "pistol" }, "B02 is 2 steps away across A01")
  g:move_piece(2, "C02")
  expect_eq(offered(g, "attack"), {}, "C02 is 3 steps away")
  g:give(1, "shotgun")
  expect_eq(offered(g, "attack"), { "shotgun" })
  expect_eq(attack(g, "shotgun", 2, { 5 }), 5, "three steps over water: times 1")
end)

test("only enemies are targets; an ally in range does not make a weapon usable", function()
  -- Seats 1 and 3 are police, 2 and 4 terrorists.
  local g = game{ at = { "A00", "L07", "B00", "J07" } }
  expect_eq(g:state().seats[3].side, "police")
  expect_eq(g:state().seats[2].side, "terrorists")
  expect_eq(offered(g, "attack"), {}, "only an ally is near")
  refused(g, { action = "attack", weapon = "knife" })
  g:move_piece(2, "C00")
  expect_eq(offered(g, "attack"), { "pistol" }, "the ally next to A00 does not make the knife usable")
  g:force_dice{ 2 }
  g:act{ action = "attack", weapon = "pistol" }
  expect_eq(targets(g), { 2 })
  refused(g, { action = "attack", weapon = "pistol", target = 3 }, "target")
  refused(g, { action = "attack", weapon = "pistol", target = 4 }, "target")
  g:act{ action = "attack", weapon = "pistol", target = 2 }
  expect_eq(g:stat(2, "health"), 96)
  expect_eq(g:stat(3, "health"), 100)
end)

test("after the roll only enemies within the chosen weapon's range are targets", function()
  local g = game{ at = { "A00", "B00", "H07", "D00" } }
  g:give(1, "shotgun")
  g:force_dice{ 2 }
  g:act{ action = "attack", weapon = "knife" }
  expect_eq(targets(g), { 2 }, "the knife reaches B00 only")
  refused(g, { action = "attack", weapon = "knife", target = 4 }, "target")
  g:act{ action = "cancel" }
  g:set_turn(1)
  g:force_dice{ 2 }
  g:act{ action = "attack", weapon = "shotgun" }
  expect_eq(targets(g), { 2, 4 })
  g:act{ action = "attack", weapon = "shotgun", target = 4 }
  expect_eq(g:stat(4, "health"), 98, "three steps: times 1")
  expect_eq(g:stat(2, "health"), 100)
end)

test("the weapon cannot be switched after the roll", function()
  local g = duel(1, "shotgun")
  g:force_dice{ 6 }
  g:act{ action = "attack", weapon = "knife" }
  refused(g, { action = "attack", weapon = "shotgun", target = 2 }, "cannot change")
  g:act{ action = "attack", weapon = "knife", target = 2 }
  expect_eq(g:stat(2, "health"), 94, "the knife's damage, not the shotgun's 18")
  expect_eq(g:charges(1, "shotgun"), 8)
end)
