-- Kills and the end of the game: health reduced to 0 removes the character and puts its seat
-- out of the game; a dead character takes no turns and cannot be targeted; killing the last
-- enemy character wins the game for the whole side.

local game, attack, offered, refused = helpers.game, helpers.attack, helpers.offered, helpers.refused

test("seats alternate sides: odd seats police, even seats terrorists", function()
  local g = scenario.new{ seed = 1, seats = 6, board = helpers.OPEN }
  local sides = {}
  for _, seat in ipairs(g:state().seats) do sides[#sides + 1] = seat.side end
  expect_eq(sides, { "police", "terrorists", "police", "terrorists", "police", "terrorists" })
  for seat = 1, 6 do expect_eq(g:piece_of(seat), seat, "piece " .. seat .. " is seat " .. seat .. "'s character") end
end)

test("health reduced to exactly 0 kills: the character leaves the board and its seat is out", function()
  -- Seats 1 and 3 police, 2 and 4 terrorists: the game goes on after the kill.
  local g = game{ at = { "A00", "B00", "H07", "L05" } }
  g:set_stat(2, "health", 6)
  expect_eq(attack(g, "knife", 2, { 6 }), 6)
  expect_eq(g:stat(2, "health"), 0)
  expect_eq(g:alive(2), false)
  expect_eq(g:piece_of(2), nil)
  expect_eq(g:piece_space(2), nil)
  expect_eq(g:seat_status(2), "eliminated")
  expect_eq(g:over(), false, "terrorist 4 is still alive")
  expect_eq(#helpers.events_named(g, "piece_removed"), 1)
  expect_eq(helpers.events_named(g, "seat_eliminated"), { { event = "seat_eliminated", seat = 2 } })
end)

test("damage beyond the health left kills, and health stops at 0", function()
  local g = game{ at = { "A00", "B00", "H07", "L05" } }
  g:set_stat(2, "health", 3)
  expect_eq(attack(g, "pistol", 2, { 6 }), 3, "12 damage, 3 health")
  expect_eq(g:stat(2, "health"), 0)
  expect_eq(g:alive(2), false)
end)

test("a character with health left is not killed", function()
  local g = game{ at = { "A00", "B00", "H07", "L05" } }
  g:give(1, "sniper_rifle")
  attack(g, "sniper_rifle", 2, { 6 })
  expect_eq(g:stat(2, "health"), 25)
  expect_eq(g:alive(2), true)
  expect_eq(g:seat_status(2), "active")
  g:set_turn(1)
  g:set_charges(1, "sniper_rifle", 5)
  attack(g, "sniper_rifle", 2, { 4 })
  expect_eq(g:alive(2), false, "25 more damage kills")
end)

test("a dead character takes no turns and is paid nothing", function()
  local g = game{ at = { "A00", "B00", "H07", "L05" } }
  g:set_stat(2, "health", 1)
  attack(g, "knife", 2, { 1 })
  g:pass()
  expect_eq(g:current_seat(), 3, "seat 2 is skipped")
  expect_eq(g:resource(2, "money"), 0)
  expect_eq(g:resource(3, "money"), 5)
  g:pass()
  expect_eq(g:current_seat(), 4)
  g:pass()
  expect_eq(g:current_seat(), 1)
  g:pass()
  expect_eq(g:current_seat(), 3, "seat 2 is skipped every round")
  expect_eq(g:resource(2, "money"), 0)
end)

test("a dead character cannot be targeted and does not put a weapon in range", function()
  local g = game{ at = { "A00", "B00", "H07", "D00" } }
  g:set_stat(2, "health", 1)
  attack(g, "knife", 2, { 1 })
  g:set_turn(1)
  expect_eq(offered(g, "attack"), {}, "only the dead character was within pistol range")
  g:give(1, "shotgun")
  expect_eq(offered(g, "attack"), { "shotgun" })
  g:force_dice{ 1 }
  g:act{ action = "attack", weapon = "shotgun" }
  expect_eq(helpers.targets(g), { 4 })
  refused(g, { action = "attack", weapon = "shotgun", target = 2 })
end)

test("a dead character's tile is free again", function()
  local g = game{ at = { "A00", "B00", "H07", "L05" } }
  g:set_stat(2, "health", 1)
  attack(g, "knife", 2, { 1 })
  g:force_dice{ 1 }
  g:act{ action = "move" }
  expect_eq(helpers.destinations(g), { "A01", "B00" })
  g:act{ action = "move", to = "B00" }
  expect_eq(g:piece_space(1), "B00")
end)

test("killing the only enemy wins the game for the police", function()
  local g = game{ at = { "A00", "B00" } }
  g:set_stat(2, "health", 2)
  attack(g, "knife", 2, { 2 })
  expect_eq(g:over(), true)
  expect_eq(g:outcome(), { result = "win", seats = { 1 } })
  expect_eq(g:legal(), {}, "nothing more to do")
end)

test("the terrorists win by killing the last police character", function()
  local g = game{ at = { "A00", "C00" } }
  g:set_turn(2)
  g:set_stat(1, "health", 4)
  attack(g, "pistol", 1, { 2 })
  expect_eq(g:alive(1), false)
  expect_eq(g:outcome(), { result = "win", seats = { 2 } })
end)

test("the side wins when its last enemy dies, with every seat of the side", function()
  local g = game{ at = { "A00", "B00", "H07", "C00" } }
  g:set_stat(2, "health", 1)
  attack(g, "knife", 2, { 1 })
  expect_eq(g:over(), false, "terrorist 4 is still alive")
  g:set_turn(1)
  g:set_stat(4, "health", 2)
  attack(g, "pistol", 4, { 1 })
  expect_eq(g:outcome(), { result = "win", seats = { 1, 3 } })
end)

test("a side wins with all its characters, the dead ones included", function()
  -- Terrorist 4 kills police 3; then police 1 kills both terrorists.
  local g = game{ at = { "A00", "B00", "H07", "G07" } }
  g:set_turn(4)
  g:set_stat(3, "health", 1)
  attack(g, "knife", 3, { 1 })
  expect_eq(g:seat_status(3), "eliminated")
  expect_eq(g:over(), false)
  g:set_turn(1)
  g:set_stat(2, "health", 1)
  attack(g, "knife", 2, { 1 })
  g:move_piece(4, "C00")
  g:set_turn(1)
  g:set_stat(4, "health", 1)
  attack(g, "pistol", 4, { 1 })
  expect_eq(g:outcome(), { result = "win", seats = { 1, 3 } })
end)
